import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { field, signUpAndIn, text } from '@techit/testkit/api-client';
import { call, expectStatus, lastInstance } from './api-call';

/** One `event:` of the stream, as it arrived. */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: unknown;
  /** performance.now() when it was read. */
  at: number;
  /** The instance whose connection carried it. */
  instance: string;
}

/** One connection of the reader, from its reply's headers to its end. */
export interface StreamConnection {
  instance: string;
  /** The Last-Event-ID it was opened with; null on the first. */
  lastEventIdSent: string | null;
  openedAt: number;
  endedAt: number | null;
  endReason: string | null;
}

/**
 * A reader of GET /api/notifications/stream as the web app reads it (fetch with the Authorization
 * header, text/event-stream parsed by hand), through the balancer. When a connection ends it
 * connects again after `reconnectDelayMs`, with Last-Event-ID set to the last id it received, as
 * the web client does after a restart of its instance.
 */
export class NotificationStreamReader {
  readonly events: StreamEvent[] = [];
  readonly connections: StreamConnection[] = [];
  private lastEventId: string | null = null;
  private abort = new AbortController();
  private closed = false;
  private running: Promise<void> | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly reconnectDelayMs: number,
  ) {}

  /** Connects; resolves once the first connection's reply has come (its instance is known). */
  async open(): Promise<string> {
    const first = this.connect();
    this.running = first.then(({ done }) => this.keepReading(done));
    return (await first).instance;
  }

  /** The instance serving the current connection ('' between connections). */
  get instance(): string {
    const current = this.connections[this.connections.length - 1];
    return current && current.endedAt === null ? current.instance : '';
  }

  /** Resolves with the first event (since `from`) that `match` accepts; rejects after `timeoutMs`. */
  async waitFor(match: (event: StreamEvent) => boolean, from: number, timeoutMs: number): Promise<StreamEvent> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = this.events.find((event) => event.at >= from && match(event));
      if (found) return found;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no matching stream event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    await this.running?.catch(() => undefined);
  }

  private async keepReading(done: Promise<void>): Promise<void> {
    for (;;) {
      await done;
      if (this.closed) return;
      await sleep(this.reconnectDelayMs);
      if (this.closed) return;
      try {
        done = (await this.connect()).done;
      } catch (error) {
        // The balancer had no instance for it yet: try again after the delay.
        const failed: StreamConnection = {
          instance: '',
          lastEventIdSent: this.lastEventId,
          openedAt: performance.now(),
          endedAt: performance.now(),
          endReason: error instanceof Error ? error.message : String(error),
        };
        this.connections.push(failed);
        done = Promise.resolve();
      }
    }
  }

  /** Opens one connection; `done` settles when it ends, however it ends. */
  private async connect(): Promise<{ instance: string; done: Promise<void> }> {
    this.abort = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' };
    if (this.lastEventId !== null) headers['last-event-id'] = this.lastEventId;
    const reply = await fetch(`${this.baseUrl}/api/notifications/stream`, { headers, signal: this.abort.signal });
    if (reply.status !== 200 || !reply.body) {
      const body = await reply.text().catch(() => '');
      throw new Error(`the stream answered ${reply.status} ${body.slice(0, 200)}`);
    }
    const connection: StreamConnection = {
      instance: lastInstance(reply.headers.get('x-instance')),
      lastEventIdSent: this.lastEventId,
      openedAt: performance.now(),
      endedAt: null,
      endReason: null,
    };
    this.connections.push(connection);
    const done = this.read(reply.body, connection).then(
      () => {
        connection.endedAt = performance.now();
        connection.endReason = 'ended by the server';
      },
      (error: unknown) => {
        connection.endedAt = performance.now();
        connection.endReason =
          error instanceof Error
            ? error.cause instanceof Error
              ? `${error.message}: ${error.cause.message}`
              : error.message
            : String(error);
      },
    );
    return { instance: connection.instance, done };
  }

  private async read(body: ReadableStream<Uint8Array>, connection: StreamConnection): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = blockEnd(buffer); end !== null; end = blockEnd(buffer)) {
        this.parseBlock(buffer.slice(0, end.index), connection.instance);
        buffer = buffer.slice(end.index + end.length);
      }
    }
  }

  private parseBlock(block: string, instance: string): void {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      // ':' starts a comment (the heartbeat).
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'id') id = value;
      else if (name === 'event') event = value;
      else if (name === 'data') data.push(value);
    }
    if (data.length === 0) return;
    if (id !== null) this.lastEventId = id;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(data.join('\n'));
    } catch {
      parsed = data.join('\n');
    }
    this.events.push({ id, event, data: parsed, at: performance.now(), instance });
    for (const wake of [...this.waiters]) {
      this.waiters.delete(wake);
      wake();
    }
  }
}

function blockEnd(buffer: string): { index: number; length: number } | null {
  const match = /\r?\n\r?\n/.exec(buffer);
  return match ? { index: match.index, length: match[0].length } : null;
}

/** The notification an event carries, if any. */
function notificationOf(event: StreamEvent): unknown {
  return field(event.data, 'notification');
}

/** An event carrying the like notification of `postId`. */
export function isLikeOf(postId: string): (event: StreamEvent) => boolean {
  return (event) => {
    const notification = notificationOf(event);
    return text(notification, 'kind') === 'like' && text(field(notification, 'post'), '_id') === postId;
  };
}

/** An event carrying the comment notification whose excerpt holds `[mark]` (the comments are written so). */
export function isCommentWith(mark: string): (event: StreamEvent) => boolean {
  return (event) => {
    const notification = notificationOf(event);
    // Bracketed: mark 1 must not match the excerpt of mark 10.
    return (
      text(notification, 'kind') === 'comment' && text(field(notification, 'comment'), 'excerpt').includes(`[${mark}]`)
    );
  };
}

export interface LiveUsers {
  reader: { id: string; token: string };
  writer: { id: string; token: string };
  /** The reader's posts: the likes go to these, one each, and the comments to the first. */
  postIds: string[];
}

/** A reader with posts and a writer, signed up through the balancer. */
export async function createLiveUsers(balancerUrl: string, tag: string, posts: number): Promise<LiveUsers> {
  const password = `cluster-${tag}-password`;
  const reader = await signUpAndIn(balancerUrl, { userName: `notified_${tag}`, password });
  const writer = await signUpAndIn(balancerUrl, { userName: `notifier_${tag}`, password });
  const postIds: string[] = [];
  for (let index = 0; index < posts; index += 1) {
    const reply = await call(balancerUrl, 'POST', '/api/createpost', {
      token: reader.token,
      json: { title: `Live ${tag} #${index}`, desc: `A post of the reader, for notifications` },
    });
    expectStatus(reply, 201, `the reader's post ${index}`);
    postIds.push(text(field(reply.body, 'post'), '_id'));
  }
  return { reader: { id: reader.id, token: reader.token }, writer: { id: writer.id, token: writer.token }, postIds };
}

export interface DeliveryOutcome {
  /** Every write's event arrived on the reader's stream. */
  allArrived: boolean;
  writes: number;
  arrived: number;
  /** Writes answered by an instance other than the one holding the stream. */
  onOtherInstances: number;
  streamInstance: string;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  failure: string | null;
}

/**
 * The reader holds its stream through nginx on one instance while the writer likes each of its
 * posts and comments on the first, one write at a time, round-robin over the instances. A write's
 * delivery time runs from the moment its request is sent (an upper bound: the notification
 * commits later) to the moment its event is read from the stream.
 */
export async function measureDelivery(
  balancerUrl: string,
  users: LiveUsers,
  tag: string,
  comments: number,
): Promise<DeliveryOutcome> {
  const stream = new NotificationStreamReader(balancerUrl, users.reader.token, 200);
  const times: number[] = [];
  let onOtherInstances = 0;
  let failure: string | null = null;
  const writes = users.postIds.length + comments;
  let streamInstance = '';
  try {
    streamInstance = await stream.open();
    // The first event (the unread count) says the stream is listening.
    await stream.waitFor(() => true, 0, 10_000);
    const steps: { path: string; json: unknown; match: (event: StreamEvent) => boolean }[] = [
      ...users.postIds.map((postId) => ({ path: '/api/like', json: { postId }, match: isLikeOf(postId) })),
      ...Array.from({ length: comments }, (_, index) => {
        const mark = `live-${tag}-${index}`;
        return {
          path: '/api/comment',
          json: { postId: users.postIds[0], text: `Comment [${mark}]` },
          match: isCommentWith(mark),
        };
      }),
    ];
    for (const step of steps) {
      const sentAt = performance.now();
      const reply = await call(balancerUrl, 'PUT', step.path, { token: users.writer.token, json: step.json });
      expectStatus(reply, 200, `${step.path} ${JSON.stringify(step.json)}`);
      if (reply.instance !== streamInstance) onOtherInstances += 1;
      const event = await stream.waitFor(step.match, sentAt, 10_000);
      times.push(event.at - sentAt);
    }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    await stream.close();
  }
  const sorted = [...times].sort((x, y) => x - y);
  return {
    allArrived: failure === null && times.length === writes,
    writes,
    arrived: times.length,
    onOtherInstances,
    streamInstance,
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    failure,
  };
}

export interface ReconnectOutcome {
  passed: boolean;
  detail: string;
  connections: StreamConnection[];
  acknowledged: number;
  /** Acknowledged while the reader had no connection: only Last-Event-ID brings these. */
  writtenWhileAway: number;
  missing: number;
}

/**
 * How long the reader stays away after its instance is killed (the web client backs off too): long
 * enough for comments to be acknowledged meanwhile, which only the Last-Event-ID catch-up brings.
 */
const RECONNECT_AFTER_KILL_MS = 3000;

/**
 * The reader's stream held on `victim` through the whole load, while the writer comments on the
 * reader's post every `everyMs`. When the victim is killed the stream ends; the reader connects
 * again (through nginx, so to a live instance) with Last-Event-ID after RECONNECT_AFTER_KILL_MS,
 * and must then get every comment acknowledged meanwhile (at least one must have been).
 */
export class StreamThroughKill {
  private stream: NotificationStreamReader;
  private writing: Promise<void> | null = null;
  private stopWriting = false;
  private readonly acknowledged: { mark: string; at: number }[] = [];
  private failedWrites = 0;

  constructor(
    private readonly balancerUrl: string,
    private readonly users: LiveUsers,
    private readonly tag: string,
    private readonly everyMs: number,
  ) {
    this.stream = new NotificationStreamReader(balancerUrl, users.reader.token, RECONNECT_AFTER_KILL_MS);
  }

  /** Opens the stream until nginx gives it to `victimAddress` (round-robin: within a few tries). */
  async openOn(victimAddress: string): Promise<void> {
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const instance = await this.stream.open();
      if (instance === victimAddress) return;
      await this.stream.close();
      this.stream = new NotificationStreamReader(this.balancerUrl, this.users.reader.token, RECONNECT_AFTER_KILL_MS);
    }
    throw new Error(`nginx never gave the stream to ${victimAddress}`);
  }

  /** Two writers one after the other's heels, so comments keep being acknowledged while the reader is away. */
  startWriting(): void {
    const writer = async (name: string): Promise<void> => {
      for (let index = 0; !this.stopWriting; index += 1) {
        const mark = `kill-${this.tag}-${name}${index}`;
        const reply = await call(this.balancerUrl, 'PUT', '/api/comment', {
          token: this.users.writer.token,
          json: { postId: this.users.postIds[0], text: `Comment [${mark}]` },
        }).catch(() => null);
        if (reply?.status === 200) this.acknowledged.push({ mark, at: performance.now() });
        else this.failedWrites += 1;
        await sleep(this.everyMs);
      }
    };
    this.writing = Promise.all([writer('a'), writer('b')]).then(() => undefined);
  }

  /** Stops the writer, waits (bounded) for every acknowledged comment's event, and judges. */
  async finish(victimAddress: string): Promise<ReconnectOutcome> {
    this.stopWriting = true;
    await this.writing;
    const missingMarks: string[] = [];
    for (const { mark } of this.acknowledged) {
      await this.stream.waitFor(isCommentWith(mark), 0, 10_000).catch(() => missingMarks.push(mark));
    }
    const connections = [...this.stream.connections];
    await this.stream.close();
    const first = connections[0];
    const dropped = first?.endedAt ?? null;
    const back = connections.find((connection, index) => index > 0 && connection.instance !== '');
    const writtenWhileAway =
      dropped === null || !back ? 0 : this.acknowledged.filter(({ at }) => at >= dropped && at <= back.openedAt).length;
    const reconnectedWithId = back !== undefined && back.lastEventIdSent !== null;
    const passed =
      first?.instance === victimAddress &&
      dropped !== null &&
      reconnectedWithId &&
      writtenWhileAway > 0 &&
      missingMarks.length === 0 &&
      this.acknowledged.length > 0;
    const detail = [
      `stream on ${first?.instance ?? '-'}`,
      dropped === null
        ? 'it never ended (the kill did not reach it)'
        : `ended when it was killed (${first?.endReason ?? '-'})`,
      back
        ? `reconnected to ${back.instance} ${((back.openedAt - (dropped ?? 0)) / 1000).toFixed(1)} s later with Last-Event-ID ${back.lastEventIdSent === null ? 'MISSING' : 'set'}`
        : 'never reconnected',
      `${this.acknowledged.length - missingMarks.length} of ${this.acknowledged.length} acknowledged comments arrived (${writtenWhileAway} written while it was away; ${this.failedWrites} writes failed during the kill)`,
      missingMarks.length > 0 ? `missing: ${missingMarks.slice(0, 5).join(', ')}` : '',
    ]
      .filter((part) => part !== '')
      .join('; ');
    return {
      passed,
      detail,
      connections,
      acknowledged: this.acknowledged.length,
      writtenWhileAway,
      missing: missingMarks.length,
    };
  }

  async abort(): Promise<void> {
    this.stopWriting = true;
    await this.writing?.catch(() => undefined);
    await this.stream.close();
  }
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}
