import { Logger } from '@nestjs/common';
import { sql } from 'kysely';
import { Client, type Notification } from 'pg';
import type { Db } from '../database/database.types';
import type { SignalTransport } from './notification-signals';
import { signalMessages, signalUserIds } from './signal-message';

/** The LISTEN/NOTIFY channel. Channels are per database, not per schema: see `scope` below. */
export const PG_SIGNAL_CHANNEL = 'techit_notifications';
/** The listening connection's application_name, so pg_stat_activity shows whose it is. */
export const PG_SIGNAL_APPLICATION_NAME = 'techit-notifications';

export interface PgSignalOptions {
  /** After the listening connection fails, the first wait before connecting again; doubled up to maxRetryMs. */
  firstRetryMs: number;
  maxRetryMs: number;
  /** The longest connecting may take before it counts as a failure (and is retried). */
  connectTimeoutMs: number;
}

const DEFAULTS: PgSignalOptions = { firstRetryMs: 100, maxRetryMs: 2000, connectTimeoutMs: 5000 };

/**
 * Notification signals over PostgreSQL LISTEN/NOTIFY (DATABASE_URL without REDIS_URL;
 * docs/decisions/040). Listening holds one connection of its own for the life of the instance
 * (a pooled one would be handed to queries that LISTEN does not concern, and released it stops
 * hearing); it is opened again after any failure (a server restart, pg_terminate_backend), with
 * back-off. Publishing goes through the app's pool, so a signal does not wait for the listener to
 * reconnect. Several deployments may share one database in different schemas (the tests do), and
 * a channel spans the database, so each message starts with the publisher's current_schema() and
 * the listener keeps only those of its own schema. Signals published while the listener is away
 * are lost: readers catch up from the database with Last-Event-ID (the list is the truth).
 */
export class PgSignalTransport implements SignalTransport {
  private readonly logger = new Logger('NotificationSignals');
  private readonly options: PgSignalOptions;
  private client: Client | null = null;
  private deliver: (userIds: string[]) => void = () => undefined;
  private schema: string | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private closed = false;
  private outage = false;
  private listeningNow: Promise<void> | null = null;

  constructor(
    private readonly connectionString: string,
    // Only `select pg_notify(…)` is run through the app's pool.
    private readonly db: Db,
    options: Partial<PgSignalOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.retryMs = this.options.firstRetryMs;
  }

  /** Connects and listens; a failure is retried in the background, never fails start-up. */
  async start(deliver: (userIds: string[]) => void): Promise<void> {
    this.deliver = deliver;
    await this.listen();
  }

  async publish(userIds: string[]): Promise<void> {
    for (const message of signalMessages(userIds)) {
      await sql`select pg_notify(${PG_SIGNAL_CHANNEL}, current_schema() || ':' || ${message})`.execute(this.db);
    }
  }

  /** The listening connection's server process id, while it is listening (for tests and health). */
  get listenerPid(): number | null {
    return this.client && this.schema !== null ? (this.client as Client & { processID: number }).processID : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.listeningNow?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private listen(): Promise<void> {
    this.listeningNow ??= this.connect().finally(() => {
      this.listeningNow = null;
    });
    return this.listeningNow;
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.connectionString,
      application_name: PG_SIGNAL_APPLICATION_NAME,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
    });
    // Once connected, a failure shows as 'error' (then 'end'); either means listening again.
    let lost = false;
    const onLost = (error?: Error): void => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = null;
        this.schema = null;
      }
      void client.end().catch(() => undefined);
      if (!this.closed) this.retry(error ?? new Error('the connection ended'));
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message: Notification) => this.received(message));
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      await client.query(`LISTEN ${PG_SIGNAL_CHANNEL}`);
      if (this.closed) {
        lost = true;
        await client.end();
        return;
      }
      this.client = client;
      this.schema = rows[0]?.schema ?? 'public';
      this.retryMs = this.options.firstRetryMs;
      this.available();
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private received(message: Notification): void {
    if (message.channel !== PG_SIGNAL_CHANNEL || !message.payload || this.schema === null) return;
    const separator = message.payload.indexOf(':');
    if (message.payload.slice(0, separator) !== this.schema) return;
    const userIds = signalUserIds(message.payload.slice(separator + 1));
    if (userIds.length > 0) this.deliver(userIds);
  }

  private retry(error: Error): void {
    this.unavailable(error);
    clearTimeout(this.retryTimer);
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs);
    this.retryTimer = setTimeout(() => void this.listen(), wait);
  }

  private unavailable(error: Error): void {
    if (this.outage) return;
    this.outage = true;
    this.logger.error(
      `Listening for notification signals on PostgreSQL failed (${error.message}): notifications reach only the streams on this instance until it listens again`,
    );
  }

  private available(): void {
    if (!this.outage) return;
    this.outage = false;
    this.logger.log('Listening for notification signals on PostgreSQL again: notifications reach every instance');
  }
}
