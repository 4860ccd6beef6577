import { Logger } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import type { SignalTransport } from './notification-signals';
import { signalMessages, signalUserIds } from './signal-message';

/** The pub/sub channel; the prefix says whose it is in a Redis shared with other software. */
export const REDIS_SIGNAL_CHANNEL = 'techit:notifications';
/** Both connections carry this name, so `CLIENT LIST` shows them (and a test sees them close). */
export const REDIS_SIGNAL_CONNECTION_NAME = 'techit-notifications';

export interface RedisSignalOptions {
  /** The longest a publish may take; past it the signal reaches this instance's readers only. */
  commandTimeoutMs: number;
  /** How long start() waits for the subscription before streams are served without it. */
  connectWaitMs: number;
}

const DEFAULTS: RedisSignalOptions = { commandTimeoutMs: 500, connectWaitMs: 3000 };

/**
 * Notification signals over Redis pub/sub (REDIS_URL; docs/decisions/040). A subscribed
 * connection can send nothing else, so publishing has a connection of its own. Redis down never
 * fails a write nor holds it up: a publish fails at once while disconnected (NotificationSignals
 * then tells this instance's readers), and both connections reconnect in the background; ioredis
 * subscribes again by itself after a reconnection. Signals published meanwhile are lost, which
 * costs readers nothing but latency: the stream's Last-Event-ID catch-up and the list are the truth.
 */
export class RedisSignalTransport implements SignalTransport {
  private readonly logger = new Logger('NotificationSignals');
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly options: RedisSignalOptions;
  private readonly where: string;
  private outage = false;

  constructor(redisUrl: string, options: Partial<RedisSignalOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
    // Host and port only: the URL may carry a password.
    this.where = new URL(redisUrl).host;
    const common: RedisOptions = {
      lazyConnect: true,
      connectionName: REDIS_SIGNAL_CONNECTION_NAME,
      connectTimeout: this.options.connectWaitMs,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    };
    this.publisher = new Redis(redisUrl, {
      ...common,
      commandTimeout: this.options.commandTimeoutMs,
      // A publish while disconnected fails at once instead of waiting for the connection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    // The subscription is queued until the connection is up and renewed after each reconnection.
    this.subscriber = new Redis(redisUrl, { ...common, autoResubscribe: true });
    // Without listeners ioredis prints every failed reconnection; the outage is logged once here.
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (error: Error) => this.unavailable(error));
      connection.on('ready', () => this.available());
    }
  }

  async start(deliver: (userIds: string[]) => void): Promise<void> {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== REDIS_SIGNAL_CHANNEL) return;
      const userIds = signalUserIds(message);
      if (userIds.length > 0) deliver(userIds);
    });
    this.publisher.connect().catch(() => undefined);
    this.subscriber.connect().catch(() => undefined);
    // Never fails: streams are served (with this instance's signals only) until Redis answers.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([
        this.subscriber.subscribe(REDIS_SIGNAL_CHANNEL).catch((error: unknown) => this.unavailable(error)),
        // The first publish goes out instead of failing on a connection still opening.
        ready(this.publisher),
      ]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.connectWaitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  async publish(userIds: string[]): Promise<void> {
    for (const message of signalMessages(userIds)) await this.publisher.publish(REDIS_SIGNAL_CHANNEL, message);
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher, this.subscriber].map((connection) => this.closeConnection(connection)));
  }

  /** QUIT lets a pending publish finish; a Redis that does not answer it is simply dropped. */
  private async closeConnection(connection: Redis): Promise<void> {
    if (connection.status === 'ready') {
      const ended = new Promise<void>((resolve) => connection.once('end', () => resolve()));
      await Promise.race([
        connection
          .quit()
          .then(() => ended)
          .catch(() => undefined),
        sleep(this.options.commandTimeoutMs),
      ]);
    }
    // Only what is still open: ioredis arms a 2 s timer per disconnect that only a closing socket clears.
    if (connection.status !== 'end') connection.disconnect();
  }

  private unavailable(error: unknown): void {
    if (this.outage) return;
    this.outage = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error(
      `Redis at ${this.where} is unavailable (${reason}): notifications reach only the streams on this instance until it answers`,
    );
  }

  private available(): void {
    if (!this.outage) return;
    this.outage = false;
    this.logger.log(`Redis at ${this.where} answers again: notifications reach every instance`);
  }
}

function ready(connection: Redis): Promise<void> {
  if (connection.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => connection.once('ready', () => resolve()));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
