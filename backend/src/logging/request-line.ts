import type { DestinationStream, Logger } from 'pino';
import { scrubLogLine } from './log-redaction';
import { remembered } from './remembered';

/** A request line's fields: flat, strings and numbers only. */
export type FlatFields = Record<string, string | number | undefined>;

interface Destination {
  stream: DestinationStream;
  /** The logger's base fields as pino writes them after the time: `,"pid":…,"hostname":"…"`. */
  base: string;
}

/** The loggers createAppLogger made, and their children, with where their lines go. */
const destinations = new WeakMap<Logger, Destination>();

/** For createAppLogger: `logger` writes to `stream` with these base fields. */
export function writeFlatLinesTo(logger: Logger, stream: DestinationStream, base: Record<string, unknown>): void {
  destinations.set(logger, { stream, base: jsonFields(base) });
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
 * known fields needs none of that (docs/performance.md). Any other logger (not made by
 * createAppLogger, nor a child of one) goes through `logger.info`, which writes the same line.
 */
export function logFlatInfo(logger: Logger, fields: FlatFields, msg: string): void {
  if (!logger.isLevelEnabled('info')) return;
  const destination = destinations.get(logger);
  if (destination === undefined) {
    logger.info(fields, msg);
    return;
  }
  // bindings() leaves out pid and hostname, which come first, from the base.
  let line = `{"level":"info","time":"${isoTimeNow()}"${destination.base}${jsonFields(logger.bindings())}`;
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
