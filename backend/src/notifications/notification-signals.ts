import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';

/**
 * Carries "these users' notifications changed" between instances (issue 18): Redis pub/sub when
 * REDIS_URL is set, PostgreSQL LISTEN/NOTIFY on PostgreSQL without Redis, nothing on a single
 * SQLite instance. A transport delivers every published message to every instance, the publisher
 * included, so delivery has one path.
 */
export interface SignalTransport {
  publish(userIds: string[]): Promise<void>;
  /** Called once, before the first publish, with the function each received message goes to. */
  start(deliver: (userIds: string[]) => void): Promise<void>;
  close(): Promise<void>;
}

export const SIGNAL_TRANSPORT = Symbol('SIGNAL_TRANSPORT');

export type SignalListener = () => void;

/**
 * The one way a change to someone's notifications reaches their open streams: services call
 * `changed(userIds)` after their transaction commits; each stream `listen`s for its user and reads
 * what is new from the database when told (a signal carries no data, so a lost or doubled signal
 * costs one extra read and never shows a wrong count).
 */
@Injectable()
export class NotificationSignals implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly listeners = new Map<string, Set<SignalListener>>();
  private started: Promise<void> | undefined;

  constructor(@Optional() @Inject(SIGNAL_TRANSPORT) private readonly transport: SignalTransport | null = null) {}

  /** Tells every instance these users' notifications changed. Never throws: the list is the truth. */
  async changed(userIds: readonly string[]): Promise<void> {
    const unique = [...new Set(userIds)];
    if (unique.length === 0) return;
    if (!this.transport) {
      this.deliver(unique);
      return;
    }
    try {
      await this.start();
      await this.transport.publish(unique);
    } catch {
      // A lost signal is caught up by the client's next reconnect or poll; this instance's own
      // readers still hear it.
      this.deliver(unique);
    }
  }

  /** Calls `listener` whenever the user's notifications change; returns the function that stops it. */
  listen(userId: string, listener: SignalListener): () => void {
    void this.start().catch(() => undefined);
    let set = this.listeners.get(userId);
    if (!set) {
      set = new Set();
      this.listeners.set(userId, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(userId);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.listeners.delete(userId);
    };
  }

  /** How many streams this instance holds open (for tests and health). */
  get listenerCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  /**
   * Connects the transport before the instance serves: a stream opened at once must already hear
   * the other instances' signals (a transport that is down does not hold start-up past its own
   * short wait; it keeps reconnecting in the background).
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.start().catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    this.listeners.clear();
    if (this.transport && this.started) await this.transport.close();
  }

  private start(): Promise<void> {
    if (!this.transport) return Promise.resolve();
    this.started ??= this.transport.start((userIds) => this.deliver(userIds));
    return this.started;
  }

  private deliver(userIds: readonly string[]): void {
    for (const userId of userIds) {
      for (const listener of this.listeners.get(userId) ?? []) listener();
    }
  }
}
