import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReaderReplyBase } from '../reader-state/reader-overlay';

/**
 * Visitors' API reads answered from memory. Most of a community's traffic is people without a
 * session reading the same first pages; a reply that depends on no viewer (no Authorization
 * header) is kept, keyed by its URL, and served again without touching Nest or the database.
 *
 * It is never stale for a write made through this server: every write (any request that is not
 * a GET or HEAD, but the few that change nothing a visitor sees: INVISIBLE_TO_VISITORS) empties
 * the cache when it starts and again when it ends, and a reply is only
 * kept if no write started or ended while it was being built. A change made outside this
 * process (another instance, `npm run admin`) shows within the TTL. See
 * docs/decisions/008-read-cache.md.
 */
export class ReadCache {
  private generation = 0;
  private personalGeneration = 0;
  private readonly entries = new Map<string, CachedReply>();
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Changes whenever a write starts or ends: a reply built across a change is not kept. */
  get version(): number {
    return this.generation;
  }

  /**
   * Changes whenever a write no visitor sees (INVISIBLE_TO_VISITORS: a bookmark, a mute…) starts
   * or ends: a signed-in reader's reply built across one is not shared (signed-in-read-cache.ts).
   */
  get personalVersion(): number {
    return this.personalGeneration;
  }

  personalChange(): void {
    this.personalGeneration += 1;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.bytes = 0;
  }

  get(key: string): CachedReply | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  set(key: string, reply: Omit<CachedReply, 'storedAt'>, builtAtVersion: number): void {
    if (builtAtVersion !== this.generation || reply.body.length > this.maxBytes / 4) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length;
    }
    this.entries.set(key, { ...reply, storedAt: this.now() });
    this.bytes += reply.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }
}

export interface CachedReply {
  /** Kept as bytes: sent as they are, without measuring and encoding the text again per hit. */
  body: Buffer;
  etag: string;
  contentType: string;
  storedAt: number;
  /**
   * The reply parsed for signed-in readers' copies (signed-in-read-cache.ts), made at the first
   * such read; null when it cannot serve them.
   */
  readerBase?: ReaderReplyBase | null;
}

/** The reads whose reply is the same for every visitor (not health, which must look each time). */
// Search and tags too: a visitor's search or autocomplete reply is the same for every visitor, and
// any write empties the cache, so a new or edited post is found in the very next search.
const CACHEABLE = /^\/api\/(posts|top-posts|user|userposts|allnotices|usernotices|search|tags)(\/|\?|$)/;

/**
 * Writes that change no byte a visitor is shown, so they leave the cache as it is: a bookmark is
 * private to its reader (`bookmarked` is false in every token-less reply, and GET /api/bookmarks
 * needs a token), and saving posts is frequent enough that emptying every visitor's cached pages
 * for it would cost the cache its point (docs/decisions/043-bookmarks.md). Muting, unmuting and
 * unblocking likewise (docs/decisions/048-blocks-and-mutes.md): they change only what that reader
 * is shown or may do, and a visitor's reply reads no one's mutes. A block is not among them: it
 * ends follows, which profiles show.
 */
const INVISIBLE_TO_VISITORS = /^\/api\/(bookmark|unbookmark|mute|unmute|unblock)(\?|$)/;

/**
 * Must be registered after registerConditionalGet (so a kept reply has its ETag) and before
 * compression (so what is kept is the JSON itself).
 */
export function registerReadCache(fastify: FastifyInstance, cache: ReadCache): void {
  if (!cache.enabled) return;
  const builtAt = new WeakMap<FastifyRequest, number>();
  const changes = (request: FastifyRequest): 'none' | 'personal' | 'shared' => {
    if (request.method === 'GET' || request.method === 'HEAD') return 'none';
    return INVISIBLE_TO_VISITORS.test(request.url) ? 'personal' : 'shared';
  };
  const invalidateFor = (request: FastifyRequest): boolean => {
    const change = changes(request);
    if (change === 'shared') cache.invalidate();
    else if (change === 'personal') cache.personalChange();
    return change !== 'none';
  };

  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (invalidateFor(request)) {
      done();
      return;
    }
    if (request.headers.authorization !== undefined || !CACHEABLE.test(request.url)) {
      done();
      return;
    }
    const hit = cache.get(request.url);
    if (!hit) {
      builtAt.set(request, cache.version);
      done();
      return;
    }
    void reply.header('content-type', hit.contentType).header('etag', hit.etag).send(hit.body);
  });

  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const version = builtAt.get(request);
    const etag = reply.getHeader('etag');
    if (version !== undefined && reply.statusCode === 200 && typeof payload === 'string' && typeof etag === 'string') {
      const contentType = String(reply.getHeader('content-type'));
      cache.set(request.url, { body: Buffer.from(payload), etag, contentType }, version);
    }
    done(null, payload);
  });

  fastify.addHook('onResponse', (request: FastifyRequest, _reply: FastifyReply, done) => {
    invalidateFor(request);
    done();
  });
}
