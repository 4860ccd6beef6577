import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { NotificationStreamEvent } from '@techit/contract/api-types';
import { NOTIFICATIONS } from '@techit/contract/limits';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { encodeCursor, type Keyset } from '../common/cursor';
import { NotificationSignals } from './notification-signals';
import { NotificationsService } from './notifications.service';

/** How long an EventSource waits before reconnecting after the stream ends (a restart, a drop). */
export const STREAM_RETRY_MS = 3000;

/**
 * Each read goes back this far before the stream's position (docs/decisions/039-notifications.md,
 * "Limits"). A notification's created_at is stamped before its transaction commits, so a slow
 * writer's row can become visible after a newer one was already sent. Such a transaction is a few
 * statements, each cancelled by PostgreSQL after DATABASE_STATEMENT_TIMEOUT_MS (10 s, lock waits
 * included), and SQLite gives up a lock wait after its 5 s busy_timeout; a minute covers a
 * transaction stuck on several such waits plus clocks of instances a few seconds apart. (A larger
 * statement timeout widens it: see windowMs.)
 */
export const STREAM_REREAD_WINDOW_MS = 60_000;

/** One open stream: its user, its socket, and how far it has told its reader. */
interface OpenStream {
  userId: string;
  response: ServerResponse;
  /** The newest (created_at, id) sent or known; the next read starts a window before it. */
  since: Keyset | null;
  /** id → created_at of what this stream sent (or the reader had) within the window: not sent again. */
  sent: Map<string, string>;
  lastCount: number;
  reading: boolean;
  readAgain: boolean;
  stop(): void;
}

/**
 * The Server-Sent Events of GET /api/notifications/stream (docs/decisions/039-notifications.md),
 * on this instance. The reply is written on the raw socket after `reply.hijack()`: no onSend hook
 * runs, so compression, the ETag/304 and the read cache never see it (they would buffer or cache a
 * reply that never ends), and the socket's idle timeout is lifted (the request-timeout sweep only
 * looks at requests still arriving). A signal (NotificationSignals) makes the stream read what
 * changed since its last event from the database: signals carry no data, so a lost one costs
 * nothing but a late update, and every instance answers the same.
 */
@Injectable()
export class NotificationStreams implements OnModuleDestroy {
  private readonly log = new Logger('NotificationStreams');
  private readonly open = new Set<OpenStream>();

  constructor(
    private readonly notifications: NotificationsService,
    private readonly signals: NotificationSignals,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** How many streams are open here (tests wait on it). */
  get size(): number {
    return this.open.size;
  }

  /**
   * Starts the stream for an authenticated user. `after` is the Last-Event-ID's position: what
   * changed since is sent at once; without it, the stream starts at the newest notification.
   */
  async serve(request: FastifyRequest, reply: FastifyReply, userId: string, after: Keyset | null): Promise<void> {
    // Read before anything is sent: a failure here is still an ordinary JSON error reply. The
    // count first, then the position, one after the other: whatever the count includes was
    // committed before the position was read, so a first event that counts a notification always
    // carries an id (concurrent reads on PostgreSQL's pool could count a like the position had not
    // seen yet: a reconnect then came without Last-Event-ID; CI, session 17).
    const { unreadCount } = await this.notifications.unreadCount(userId);
    const newest = after ? null : await this.notifications.newestKey(userId);
    // A fresh stream: what is already in the window up to its start the reader has from its list
    // (anything newer, committed since the read above, is sent by the first pump); a reconnect gets
    // the whole window again (it cannot tell which of it arrived) and the client merges by _id.
    const sent = new Map<string, string>();
    if (newest) {
      for (const key of await this.notifications.keysSince(userId, this.windowStart(newest)))
        if (!isAfter(key, newest)) sent.set(key.id, key.createdAt);
    }
    reply.hijack();
    const response = reply.raw;
    const socket = request.raw.socket;
    // Lift the idle cut of server-timeouts.ts for this connection: the heartbeat is its activity,
    // and a stream may be quiet for longer than a request may take.
    socket.setTimeout(0);
    socket.setNoDelay(true);
    response.writeHead(200, {
      ...headersOf(reply),
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: no proxy may compress or buffer it; X-Accel-Buffering: nginx streams it.
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });

    const stream: OpenStream = {
      userId,
      response,
      since: after ?? newest,
      sent,
      lastCount: unreadCount,
      reading: false,
      readAgain: false,
      stop: () => undefined,
    };
    const initial: NotificationStreamEvent = { unreadCount };
    response.write(`retry: ${STREAM_RETRY_MS}\n\n`);
    // Without a Last-Event-ID the first event carries the newest notification's position, so a
    // reconnect after it catches up from there.
    this.send(stream, initial, after ? null : newest);

    const unlisten = this.signals.listen(userId, () => void this.pump(stream));
    const heartbeat = setInterval(() => response.write(': ping\n\n'), this.config.notificationHeartbeatMs);
    heartbeat.unref();
    let stopped = false;
    stream.stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      unlisten();
      this.open.delete(stream);
      if (!response.writableEnded) response.end();
    };
    response.on('close', () => stream.stop());
    response.on('error', () => stream.stop());
    this.open.add(stream);
    // Whatever changed between the reads above and listening, and a reconnect's catch-up.
    await this.pump(stream);
  }

  /** Ends every open stream (graceful shutdown, app close): clients reconnect with Last-Event-ID. */
  closeAll(): void {
    for (const stream of [...this.open]) stream.stop();
  }

  onModuleDestroy(): void {
    this.closeAll();
  }

  /** Sends what changed since the stream's last event; one read at a time per stream. */
  private async pump(stream: OpenStream): Promise<void> {
    if (stream.reading) {
      stream.readAgain = true;
      return;
    }
    stream.reading = true;
    try {
      do {
        stream.readAgain = false;
        // From a window before the position (late commits), page by page: what was read is passed,
        // whether sent now or before, so a window full of sent items cannot loop.
        let from = stream.since ? this.windowStart(stream.since) : null;
        let sentAny = false;
        let unreadCount = stream.lastCount;
        for (;;) {
          if (!this.open.has(stream)) return;
          const batch = await this.notifications.changedSince(stream.userId, from);
          if (!this.open.has(stream)) return;
          unreadCount = batch.unreadCount;
          for (const { notification, key } of batch.notifications) {
            from = key;
            if (stream.sent.get(key.id) === key.createdAt) continue;
            if (!stream.since || isAfter(key, stream.since)) stream.since = key;
            stream.sent.set(key.id, key.createdAt);
            // The id is the stream's position, never behind it, even for a late item.
            this.send(stream, { unreadCount, notification }, stream.since);
            sentAny = true;
          }
          // A full batch: there may be more.
          if (batch.notifications.length < NOTIFICATIONS.maxLimit) break;
        }
        // A read-state change or a withdrawal: only the count moved.
        if (!sentAny && unreadCount !== stream.lastCount) this.send(stream, { unreadCount }, null);
        stream.lastCount = unreadCount;
        this.forgetBefore(stream);
      } while (stream.readAgain);
    } catch (error) {
      // The database is away: the reader reconnects and catches up with its Last-Event-ID.
      this.log.warn(`A notification stream ended on a failed read: ${String(error)}`);
      stream.stop();
    } finally {
      stream.reading = false;
    }
  }

  /** A window before the position: (created_at - window, '') comes before every id of that time. */
  private windowStart(position: Keyset): Keyset {
    return { createdAt: new Date(Date.parse(position.createdAt) - this.windowMs).toISOString(), id: '' };
  }

  /** The window, widened when the statement timeout allows longer transactions than it covers. */
  private get windowMs(): number {
    return Math.max(STREAM_REREAD_WINDOW_MS, 3 * this.config.databaseStatementTimeoutMs);
  }

  /** What fell out of the window is never read again: no need to remember it. */
  private forgetBefore(stream: OpenStream): void {
    if (!stream.since) return;
    const start = this.windowStart(stream.since).createdAt;
    for (const [id, createdAt] of stream.sent) if (createdAt < start) stream.sent.delete(id);
  }

  private send(stream: OpenStream, event: NotificationStreamEvent, key: Keyset | null): void {
    const id = key ? `id: ${encodeCursor(key)}\n` : '';
    stream.response.write(`event: notification\n${id}data: ${JSON.stringify(event)}\n\n`);
  }
}

function isAfter(a: Keyset, b: Keyset): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/** The headers the hooks set so far (security headers, request id), as writeHead takes them. */
function headersOf(reply: FastifyReply): Record<string, string | string[] | number> {
  const headers: Record<string, string | string[] | number> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
