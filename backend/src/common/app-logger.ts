import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import type { LogLevel } from '../config/app-config';
import { BatchedLogStream } from './batched-log-stream';

/**
 * Fields that may hold a secret or personal data, at the top of a logged object or one level down
 * (`{ body: { password } }`, an error's own fields) and in a `headers` object one level down.
 * Bodies are never logged; this is the second line of defence for objects that are (errors,
 * details).
 */
const SECRET_FIELDS = new Set(['password', 'password_hash', 'token', 'email', 'authorization', 'cookie']);
const SECRET_HEADERS = ['authorization', 'cookie'];
const CENSOR = '[redacted]';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy with its secret fields censored, or the object itself when it has none. */
function censorFields(fields: Fields, nested: boolean): Fields {
  let copy: Fields | undefined;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    let replacement = value;
    if (SECRET_FIELDS.has(key)) replacement = CENSOR;
    else if (nested && value instanceof Error) {
      // Kept as the Error (pino serializes it) unless one of its own fields must be censored.
      const serialized = pino.stdSerializers.err(value);
      const censored = censorFields(serialized, false);
      if (censored !== serialized) replacement = censored;
    } else if (nested && isObject(value)) replacement = censorFields(value, false);
    else if (!nested && key === 'headers' && isObject(value) && SECRET_HEADERS.some((name) => name in value)) {
      replacement = {
        ...value,
        ...Object.fromEntries(SECRET_HEADERS.filter((name) => name in value).map((name) => [name, CENSOR])),
      };
    }
    if (replacement !== value) (copy ??= { ...fields })[key] = replacement;
  }
  return copy ?? fields;
}

/**
 * pino's `redact` option did the same through @pinojs/redact, which cloned and walked every logged
 * object: 12 µs of a request line's 22, and with it the line was half of the CPU of a cached feed
 * read (docs/performance.md). This walks the keys once and copies only when something is censored.
 */
export function redactSecrets(fields: Fields): Fields {
  return censorFields(fields, true);
}

/** Query values worth seeing in a request line; every other value is replaced. */
const LOGGED_QUERY_KEYS = new Set(['page', 'limit', 'cursor', 'feed', 'userId']);

// The last line of defence, applied to every finished line: a value no field name gives away
// (a token inside an error message, an email in a PostgreSQL error's detail, a pasted URL).
// Each pattern matches neither a quote nor a backslash, so the line stays valid JSON.
const JWT_LIKE = /\beyJ[\w-]{4,}\.[\w-]*\.[\w-]*/g;
const CREDENTIALS = /\b(Bearer|Basic)\s+[^\s"\\]+/gi;
const EMAIL_LIKE = /[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

// Each pattern above needs one of these: most lines (request lines) are checked by this one scan.
const MAY_HOLD_SECRET = /eyJ|@|bearer|basic/i;

export function scrubLogLine(line: string): string {
  if (!MAY_HOLD_SECRET.test(line)) return line;
  return line
    .replace(JWT_LIKE, '[redacted token]')
    .replace(CREDENTIALS, '$1 [redacted]')
    .replace(EMAIL_LIKE, '[redacted email]');
}

const SAFE_QUERY_KEY = /^[\w.-]{1,40}$/;
// What URLSearchParams leaves as is when decoding and encodeURIComponent when encoding.
const PLAIN_QUERY_VALUE = /^[\w.~-]*$/;

/** The path as sent, with the value of every query parameter outside LOGGED_QUERY_KEYS replaced. */
export function loggableUrl(url: string): string {
  return rememberedLoggableUrl(url);
}

const rememberedLoggableUrl = remembered((url) => {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  return plainLoggableUrl(url, mark) ?? decodedLoggableUrl(url, mark);
});

/**
 * `transform` with its results for short inputs kept: a server sees the same few feed URLs, routes
 * and client addresses over and over, and a Map lookup is a fraction of a parse or a scrub.
 * Bounded: when full, it starts over.
 */
function remembered(transform: (input: string) => string, capacity = 1000): (input: string) => string {
  const results = new Map<string, string>();
  return (input) => {
    if (input.length > 200) return transform(input);
    let result = results.get(input);
    if (result === undefined) {
      result = transform(input);
      if (results.size >= capacity) results.clear();
      results.set(input, result);
    }
    return result;
  };
}

/**
 * The same line without decoding, for the usual query (`feed=for-you&page=1&limit=4`) whose keys
 * and kept values have nothing to decode: URLSearchParams was a third of the request line's cost.
 * Undefined when any part needs decoding.
 */
function plainLoggableUrl(url: string, mark: number): string | undefined {
  let shown = url.slice(0, mark + 1);
  let first = true;
  for (const pair of url.slice(mark + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? '' : pair.slice(equals + 1);
    if (!SAFE_QUERY_KEY.test(key)) return undefined;
    let shownValue = '[redacted]';
    if (LOGGED_QUERY_KEYS.has(key)) {
      if (!PLAIN_QUERY_VALUE.test(value)) return undefined;
      shownValue = value.slice(0, 200);
    }
    shown += `${first ? '' : '&'}${key}=${shownValue}`;
    first = false;
  }
  return shown;
}

function decodedLoggableUrl(url: string, mark: number): string {
  const query = new URLSearchParams(url.slice(mark + 1));
  const parts: string[] = [];
  for (const [key, value] of query) {
    const shownKey = SAFE_QUERY_KEY.test(key) ? key : '[key]';
    const shownValue = LOGGED_QUERY_KEYS.has(key) ? encodeURIComponent(value.slice(0, 200)) : '[redacted]';
    parts.push(`${shownKey}=${shownValue}`);
  }
  return `${url.slice(0, mark)}?${parts.join('&')}`;
}

let stdout: DestinationStream | undefined;

/**
 * The one pino logger of the process: Fastify's request loggers are its children and Nest's
 * messages go through AppLogger, so every line on stdout is one JSON object.
 */
export function createAppLogger(level: LogLevel, destination?: DestinationStream): Logger {
  // Asynchronous and batched: lines gather in memory and go to the OS in one write per 8 KB, off the
  // event loop, and at least every half second when traffic is light. A write per line cost the
  // server a tenth of a cached feed read's CPU under load, and the reader of the pipe (journald, a
  // container runtime) as much again. What is pending is written when the process exits, so the
  // lines before a shutdown or a fatal start-up error are kept; only a SIGKILL can lose the last
  // half second of lines.
  const stream = destination ?? (stdout ??= new BatchedLogStream(pino.destination({ dest: 1, sync: false })));
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: redactSecrets },
      serializers: {
        // Fastify logs these objects on its own in a few error paths: the URL goes out as in our
        // request line, never with its query values.
        req: (req: { method?: string; url?: string }) => ({ method: req.method, url: loggableUrl(req.url ?? '') }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
        err: pino.stdSerializers.err,
      },
      hooks: { streamWrite: scrubLogLine },
    },
    stream,
  );
}

/** A request line's fields: flat, strings and numbers only. */
export type FlatFields = Record<string, string | number | undefined>;

/**
 * Writes `{ ...fields, msg }` at info through `logger` (a request's child logger), byte for byte the
 * line `logger.info(fields, msg)` would write: pino's level, time and bindings (pid, hostname,
 * reqId), then the fields, their values scrubbed as every line is. One line per request is the
 * server's most frequent work besides answering: through pino's general path (any object,
 * serializers, redaction hooks) it was 19 µs, a quarter of a cached feed read; a flat record of
 * known fields needs none of that (docs/performance.md).
 */
export function logFlatInfo(logger: Logger, fields: FlatFields, msg: string): void {
  if (!logger.isLevelEnabled('info')) return;
  let line = `{"level":"info","time":"${isoTimeNow()}"${(logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym]}`;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue;
    line += `,${JSON.stringify(key)}:`;
    // Scrubbing each value before quoting finds what scrubbing the whole line would (no pattern
    // matches a quote, so none can span two values; the bindings are a pid, a hostname and a
    // checked request id) at a fraction of the cost: a request line is mostly fixed text.
    if (typeof value === 'number') line += Number.isFinite(value) ? String(value) : 'null';
    else line += scrubbedJsonString(value);
  }
  line += `,"msg":${JSON.stringify(scrubLogLine(msg))}}\n`;
  (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym].write(line);
}

const scrubbedJsonString = remembered((value) => JSON.stringify(scrubLogLine(value)));

let lastTimeMs = 0;
let lastTime = '';

/** pino's isoTime, formatted once per millisecond: a busy server writes several lines in each. */
function isoTimeNow(): string {
  const now = Date.now();
  if (now !== lastTimeMs) {
    lastTimeMs = now;
    lastTime = new Date(now).toISOString();
  }
  return lastTime;
}

/**
 * Nest's framework start-up chatter (one line per module and per route) would bury the lines that
 * matter at info; it stays available at debug.
 */
const FRAMEWORK_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

const STACK_LIKE = /^.*\n\s+at .+/s;

/** Nest's LoggerService over pino: the start-up line, Nest's own messages and `new Logger(…)` calls. */
export class AppLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params.at(-1);
    const framework = typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context);
    this.write(framework ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes `(message, ...extras, context)`, where an error's extra may be its stack. */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const extras = [...params];
    const last = extras.at(-1);
    if (typeof last === 'string' && !STACK_LIKE.test(last)) fields.context = extras.pop();
    for (const extra of extras) {
      if (typeof extra === 'string' && STACK_LIKE.test(extra)) fields.stack = extra;
      else if (extra !== undefined) fields.detail = extra;
    }
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, detail: message });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
