import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import type { LogLevel } from '../config/app-config';

/**
 * Fields that may hold a secret or personal data, wherever a logged object carries them. Bodies
 * are never logged; this is the second line of defence for objects that are (errors, details).
 */
const REDACTED_PATHS = [
  'password',
  'token',
  'email',
  'authorization',
  'cookie',
  '*.password',
  '*.password_hash',
  '*.token',
  '*.email',
  '*.authorization',
  '*.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
];

/** Query values worth seeing in a request line; every other value is replaced. */
const LOGGED_QUERY_KEYS = new Set(['page', 'limit', 'cursor', 'feed', 'userId']);

// The last line of defence, applied to every finished line: a value no field name gives away
// (a token inside an error message, an email in a PostgreSQL error's detail, a pasted URL).
// Each pattern matches neither a quote nor a backslash, so the line stays valid JSON.
const JWT_LIKE = /\beyJ[\w-]{4,}\.[\w-]*\.[\w-]*/g;
const CREDENTIALS = /\b(Bearer|Basic)\s+[^\s"\\]+/gi;
const EMAIL_LIKE = /[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

export function scrubLogLine(line: string): string {
  return line
    .replace(JWT_LIKE, '[redacted token]')
    .replace(CREDENTIALS, '$1 [redacted]')
    .replace(EMAIL_LIKE, '[redacted email]');
}

/** The path as sent, with the value of every query parameter outside LOGGED_QUERY_KEYS replaced. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = new URLSearchParams(url.slice(mark + 1));
  const parts: string[] = [];
  for (const [key, value] of query) {
    const shownKey = /^[\w.-]{1,40}$/.test(key) ? key : '[key]';
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
  // Asynchronous: a line is handed to the OS off the event loop, and lines written meanwhile go out
  // together (a synchronous write per request was 5 % of a like's CPU under load). pino flushes
  // what is pending when the process exits, so the lines before a shutdown or a fatal start-up
  // error are kept; only a SIGKILL can lose the last few milliseconds of lines.
  const stream = destination ?? (stdout ??= pino.destination({ dest: 1, sync: false }));
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
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
