import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, DestinationStream, Logger } from 'pino';
import { scrubLogLine } from './log-redaction';
import { remembered } from './remembered';

/** A request line's fields: flat, strings and numbers only. */
export type FlatFields = Record<string, string | number | undefined>;

interface Destination {
  stream: DestinationStream;
  /**
   * What pino writes after the time, rendered once: the base fields and, for a request logger,
   * its bindings (`,"pid":…,"hostname":"…","reqId":"…"`).
   */
  prefix: string;
}

/**
 * Where a logger's flat lines go, kept on the logger under our own symbol (an own property, so a
 * child made some other way, which inherits it through pino's prototype chain, is not mistaken
 * for one whose bindings we know). A WeakMap entry per request logger, as at first, cost a fifth
 * of a cached feed read's CPU (docs/performance.md, issue 14).
 */
const FLAT_LINES = Symbol('flatLines');
type FlatLogger = object & { [FLAT_LINES]?: Destination };

function destinationOf(logger: object): Destination | undefined {
  return Object.hasOwn(logger, FLAT_LINES) ? (logger as FlatLogger)[FLAT_LINES] : undefined;
}

/** For createAppLogger: `logger` writes to `stream` with these base fields. */
export function writeFlatLinesTo(logger: Logger, stream: DestinationStream, base: Record<string, unknown>): void {
  (logger as FlatLogger)[FLAT_LINES] = { stream, prefix: jsonFields(base) };
}

/**
 * Fastify's `childLoggerFactory`: the request's logger as Fastify's default makes it
 * (`logger.child(bindings, options)`), with its bindings rendered once for logFlatInfo (pino's
 * public `bindings()` re-parses the child's JSON on every call).
 */
export function requestChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // Fastify's loggerInstance is createAppLogger's pino logger, so its children are pino loggers.
  const child = (logger as Logger).child(bindings, options);
  const parent = destinationOf(logger) ?? parentDestination(logger as Logger);
  if (parent !== undefined) {
    (child as FlatLogger)[FLAT_LINES] = { stream: parent.stream, prefix: parent.prefix + jsonFields(bindings) };
  }
  return child;
}

/**
 * Fastify hands the factory the logger of the plugin context a route lives in: often not
 * createAppLogger's own but a child of it (which inherits its FLAT_LINES through pino's prototype
 * chain). Such parents are few and live as long as the server, so each one's bindings are read
 * once (a parent whose bindings are later changed with setBindings would keep the old ones).
 */
const parents = new WeakMap<object, Destination | null>();

function parentDestination(logger: Logger): Destination | undefined {
  let destination = parents.get(logger);
  if (destination === undefined) {
    const root = (logger as FlatLogger)[FLAT_LINES];
    // bindings() leaves out pid and hostname, which are in the root's prefix.
    destination = root ? { stream: root.stream, prefix: root.prefix + jsonFields(logger.bindings()) } : null;
    parents.set(logger, destination);
  }
  return destination ?? undefined;
}

/** `{"a":1,"b":"x"}` as `,"a":1,"b":"x"`: how pino writes bindings after the fields before them. */
function jsonFields(fields: object): string {
  const json = JSON.stringify(fields);
  return json === '{}' ? '' : `,${json.slice(1, -1)}`;
}

/**
 * Writes `{ ...fields, msg }` at info through `logger` (a request's child logger), byte for byte the
 * line `logger.info(fields, msg)` would write: pino's level, time and bindings (pid, hostname,
 * reqId), then the fields, their values scrubbed as every line is. One line per request is the
 * server's most frequent work besides answering: through pino's general path (any object,
 * serializers, redaction hooks) it was 19 µs, a quarter of a cached feed read; a flat record of
 * known fields needs none of that (docs/performance.md). Any other logger (neither
 * createAppLogger's nor made from it by requestChildLogger) goes through `logger.info`, which
 * writes the same line.
 */
export function logFlatInfo(logger: Logger, fields: FlatFields, msg: string): void {
  if (!logger.isLevelEnabled('info')) return;
  const destination = destinationOf(logger);
  if (destination === undefined) {
    logger.info(fields, msg);
    return;
  }
  let line = `{"level":"info","time":"${isoTimeNow()}"${destination.prefix}`;
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
  destination.stream.write(line);
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
