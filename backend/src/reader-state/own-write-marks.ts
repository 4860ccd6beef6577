import { Logger, type OnApplicationShutdown, type OnModuleInit, type Provider } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/**
 * "This reader wrote a moment ago", for the signed-in read cache of several instances
 * (docs/decisions/053-signed-in-read-cache.md). One instance empties its cache on every write it
 * serves, so a reader's next read there is never older than their write; but a page another
 * instance cached a second before that write would be. A mark, set before the write's reply goes
 * out and living as long as a cached page can (READ_CACHE_TTL_MS, plus a second for clocks and
 * transit), sends every read of that reader on every instance to Nest, fresh, until no page
 * cached before the write can be left.
 */
export interface OwnWriteMarks {
  mark(userId: string): Promise<void>;
  /** True when the reader wrote within the cache's lifetime, or when that cannot be known. */
  wroteRecently(userId: string): Promise<boolean>;
}

export const OWN_WRITE_MARKS = Symbol('OWN_WRITE_MARKS');

/** One instance (SQLite, or PostgreSQL without REDIS_URL): its own writes empty its own cache. */
export const NO_OTHER_INSTANCES: OwnWriteMarks = {
  mark: () => Promise.resolve(),
  wroteRecently: () => Promise.resolve(false),
};

const KEY_PREFIX = 'techit:wrote:';
/** Clock differences between instances and the time a reply takes to reach its reader. */
const MARGIN_MS = 1000;

/** The marks in the Redis every instance shares (REDIS_URL, as the rate limits, decision 015). */
export class RedisOwnWriteMarks implements OwnWriteMarks, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('SignedInReadCache');
  private readonly redis: Redis;
  private outage = false;

  constructor(
    redisUrl: string,
    private readonly lifetimeMs: number,
    commandTimeoutMs = 500,
    private readonly connectWaitMs = 3000,
  ) {
    this.redis = new Redis(redisUrl, {
      commandTimeout: commandTimeoutMs,
      connectTimeout: connectWaitMs,
      // Fail at once while disconnected: a read then goes to Nest, a mark is logged as lost.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('error', (error: Error) => this.unavailable(error));
    this.redis.on('ready', () => (this.outage = false));
  }

  /** Up to connectWaitMs for the connection at start-up; until it is up, reads are built fresh. */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    let onReady = (): void => undefined;
    await new Promise<void>((resolve) => {
      onReady = resolve;
      this.redis.once('ready', onReady);
      timer = setTimeout(resolve, this.connectWaitMs);
    });
    this.redis.off('ready', onReady);
    clearTimeout(timer);
  }

  async mark(userId: string): Promise<void> {
    try {
      await this.redis.set(KEY_PREFIX + userId, '1', 'PX', this.lifetimeMs + MARGIN_MS);
    } catch (error) {
      // The write itself succeeded; its author may see a page up to READ_CACHE_TTL_MS old elsewhere.
      this.unavailable(error);
    }
  }

  async wroteRecently(userId: string): Promise<boolean> {
    try {
      return (await this.redis.exists(KEY_PREFIX + userId)) === 1;
    } catch (error) {
      this.unavailable(error);
      return true;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }

  private unavailable(error: unknown): void {
    if (this.outage) return;
    this.outage = true;
    this.logger.error(`Redis unavailable for own-write marks; signed-in reads are built fresh: ${String(error)}`);
  }
}

export const ownWriteMarksProvider: Provider = {
  provide: OWN_WRITE_MARKS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): OwnWriteMarks =>
    config.redisUrl && config.readCacheTtlMs > 0
      ? new RedisOwnWriteMarks(config.redisUrl, config.readCacheTtlMs)
      : NO_OTHER_INSTANCES,
};
