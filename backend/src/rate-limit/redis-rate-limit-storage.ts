import { Logger, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import type { RateLimitRecord } from './rate-limit-reply';
import { RATE_LIMIT_STORAGE, type RateLimitStorage } from './rate-limit-storage';

/** Every counter's key starts with this, so a Redis shared with other software shows whose keys they are. */
export const REDIS_KEY_PREFIX = 'techit:rl:';

export interface RedisRateLimitOptions {
  /** The longest one counter update may take; past it the hit is counted in this instance instead. */
  commandTimeoutMs: number;
  /** After a failure, how long hits are counted in this instance before Redis is tried again. */
  retryAfterFailureMs: number;
  /** How long start-up waits for the first connection before serving (with local counters) anyway. */
  connectWaitMs: number;
}

const DEFAULTS: RedisRateLimitOptions = { commandTimeoutMs: 500, retryAfterFailureMs: 2000, connectWaitMs: 3000 };
/** While Redis stays unavailable the error is repeated this often, so it is not lost in the log. */
const REMIND_EVERY_MS = 60_000;

/**
 * One hit, atomically: a fixed window per key (INCR, and PEXPIRE when the key is new). Once the
 * count passes the limit the key is kept for the block duration and refused hits are not counted,
 * as in @nestjs/throttler's own storage: the block then ends with the key, and counting starts
 * afresh. Returns hits, the key's time to live in ms, whether it is blocked, and the block's time
 * to live in ms.
 */
const INCREMENT_SCRIPT = `
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local block = tonumber(ARGV[3])
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
local counted = hits <= limit
if counted then
  hits = redis.call('INCR', KEYS[1])
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  left = ttl
end
if hits <= limit then
  return {hits, left, 0, 0}
end
if counted and block > 0 then
  redis.call('PEXPIRE', KEYS[1], block)
  left = block
end
return {hits, left, 1, left}
`;

interface RateLimitCommands {
  techitRateLimitIncrement(key: string, ttlMs: number, limit: number, blockMs: number): Promise<number[]>;
}

/**
 * The limiter's counters in Redis (REDIS_URL), so a limit holds across every instance behind a
 * load balancer instead of each instance allowing the full budget.
 *
 * Redis down or slow never fails a request nor holds it up (docs/decisions/015): commands are not
 * queued while disconnected and time out after commandTimeoutMs; the hit is then counted by this
 * instance's own in-memory storage, so the limits keep holding per instance, as on a single
 * machine. Each outage is logged as an error when it starts (repeated every minute) and when it
 * ends; the connection is retried in the background all along.
 */
export class RedisRateLimitStorage implements RateLimitStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new ThrottlerStorageService();
  private readonly redis: Redis & RateLimitCommands;
  private readonly options: RedisRateLimitOptions;
  private readonly where: string;
  private unavailableUntil = 0;
  private outageLoggedAt: number | null = null;

  constructor(redisUrl: string, options: Partial<RedisRateLimitOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
    // Host and port only: the URL may carry a password.
    this.where = new URL(redisUrl).host;
    this.redis = new Redis(redisUrl, {
      commandTimeout: this.options.commandTimeoutMs,
      connectTimeout: this.options.connectWaitMs,
      // A command sent while disconnected fails at once instead of waiting for the connection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    }) as Redis & RateLimitCommands;
    this.redis.defineCommand('techitRateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    // Without a listener ioredis prints every failed reconnection to stderr; the outage is logged once here.
    this.redis.on('error', (error: Error) => this.unavailable(error));
  }

  /** Resolves once connected, or after connectWaitMs (counting locally until Redis answers): never fails start-up. */
  async connected(): Promise<void> {
    if (this.isReady()) return;
    let onReady: () => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      onReady = resolve;
      this.redis.once('ready', onReady);
      timer = setTimeout(resolve, this.options.connectWaitMs);
    });
    this.redis.off('ready', onReady);
    clearTimeout(timer);
    if (!this.isReady()) this.unavailable(new Error(`not connected after ${this.options.connectWaitMs} ms`));
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<RateLimitRecord> {
    if (!this.isReady()) {
      // Disconnected, or reconnecting: logged at once (and once a minute), not only when ioredis
      // reports its next failed attempt.
      this.unavailable(new Error(`not connected (${this.redis.status})`));
    } else if (Date.now() >= this.unavailableUntil) {
      try {
        const [hits, leftMs, blocked, blockLeftMs] = await this.redis.techitRateLimitIncrement(
          REDIS_KEY_PREFIX + key,
          ttl,
          limit,
          blockDuration,
        );
        this.available();
        return {
          totalHits: hits,
          timeToExpire: Math.ceil(leftMs / 1000),
          isBlocked: blocked === 1,
          timeToBlockExpire: blocked === 1 ? Math.ceil(blockLeftMs / 1000) : 0,
        };
      } catch (error) {
        this.unavailable(error);
      }
    }
    return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  async onApplicationShutdown(): Promise<void> {
    this.local.onApplicationShutdown();
    if (this.isReady()) {
      // QUIT lets pending replies arrive; a Redis that does not answer it is simply dropped.
      await Promise.race([this.redis.quit().catch(() => undefined), sleep(this.options.commandTimeoutMs)]);
    }
    this.redis.disconnect();
  }

  private isReady(): boolean {
    return this.redis.status === 'ready';
  }

  private unavailable(error: unknown): void {
    this.unavailableUntil = Date.now() + this.options.retryAfterFailureMs;
    const now = Date.now();
    if (this.outageLoggedAt !== null && now - this.outageLoggedAt < REMIND_EVERY_MS) return;
    this.outageLoggedAt = now;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error(
      `Redis at ${this.where} is unavailable (${reason}): rate limits are counted by each instance alone until it answers again`,
    );
  }

  private available(): void {
    if (this.outageLoggedAt === null) return;
    this.outageLoggedAt = null;
    this.logger.log(`Redis at ${this.where} answers again: rate limits are shared by every instance`);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The RATE_LIMIT_STORAGE provider for REDIS_URL; start-up waits briefly for the connection. */
export function redisRateLimitStorage(redisUrl: string): Provider {
  return {
    provide: RATE_LIMIT_STORAGE,
    useFactory: async (): Promise<RedisRateLimitStorage> => {
      const storage = new RedisRateLimitStorage(redisUrl);
      await storage.connected();
      return storage;
    },
  };
}
