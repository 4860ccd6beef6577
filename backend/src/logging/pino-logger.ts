import { hostname } from 'node:os';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogLevel } from '../config/app-config';
import { BatchedLogStream } from './batched-log-stream';
import { redactSecrets, scrubLogLine } from './log-redaction';
import { loggableUrl } from './loggable-url';
import { writeFlatLinesTo } from './request-line';

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
  // pino's default base, spelt out: the request line writes the same fields (request-line.ts).
  const base = { pid: process.pid, hostname: hostname() };
  const logger = pino(
    {
      level,
      base,
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
  writeFlatLinesTo(logger, stream, base);
  return logger;
}
