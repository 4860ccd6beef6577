import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

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
