import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReaderReplyBase } from '../reader-state/reader-overlay';

/**
 * Visitors' API reads answered from memory. Most of a community's traffic is people without a
 * session reading the same first pages; a reply that depends on no viewer (no Authorization
 * header) is kept, keyed by its URL, and served again without touching Nest or the database.
 *
 * It is never stale for a write made through this server. A like, an unlike or a comment (the
 * frequent writes) changes one post: it drops the kept replies that hold that post (their text
 * names its id) and every reply that is not a list of posts in a fixed order (a ranking, a
 * profile, a page: `scope: 'any'`), when it starts and again when it ends. Any other write (but
 * the few that change nothing a visitor sees: INVISIBLE_TO_VISITORS) empties the cache when it
 * starts and when it ends. A reply is only kept if nothing it shows changed while it was being
 * built. A change made outside this process (another instance, `npm run admin`) shows within the
 * TTL. See docs/decisions/008-read-cache.md and 053.
 */
export class ReadCache {
  /** Counts every change (a write's start or end); a reply built across one it shows is not kept. */
  private generation = 0;
  /** The generation of the last change that emptied everything. */
  private emptiedAt = 0;
  /** Per post, the generation of its last change (cleared when everything is emptied). */
  private readonly postChangedAt = new Map<string, number>();
  private personalGeneration = 0;
  private readonly entries = new Map<string, Kept>();
  /** Post id → keys of the kept replies of scope 'posts' whose text names it. */
  private readonly byPost = new Map<string, Set<string>>();
  /** Keys of the kept replies of scope 'any': dropped by every change. */
  private readonly anyScope = new Set<string>();
  private bytes = 0;
  /** Replies being built now, by key: who misses meanwhile waits for the one build (see whenBuilt). */
  private readonly building = new Map<string, () => void>();
  private readonly built = new Map<string, Promise<void>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Changes whenever a write starts or ends: pass it to set() from before the reply is built. */
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
    this.emptiedAt = this.generation;
    this.postChangedAt.clear();
    this.entries.clear();
    this.byPost.clear();
    this.anyScope.clear();
    this.bytes = 0;
  }

  /** A change to one post (a like, a comment): its replies and every reply of scope 'any' go. */
  invalidatePost(postId: string): void {
    this.generation += 1;
    // Bounded: past 100,000 posts changed since the cache was last emptied, empty it.
    if (this.postChangedAt.size >= 100_000) {
      this.invalidate();
      return;
    }
    this.postChangedAt.set(postId, this.generation);
    for (const key of [...this.anyScope, ...(this.byPost.get(postId) ?? [])]) this.drop(key);
  }

  get(key: string): CachedReply | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.drop(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  /**
   * Keeps a reply built since `builtAtVersion`, unless something it shows changed meanwhile.
   * `scope`: 'posts' for a list of posts in a fixed order (a feed by time, a user's posts, a post
   * and its conversation), which only changes with the posts its text names (and the post of its
   * URL); 'any' for everything else (rankings, profiles, search, pages), which any change drops.
   */
  set(key: string, reply: Omit<CachedReply, 'storedAt'>, builtAtVersion: number, scope: CacheScope = 'any'): void {
    if (builtAtVersion < this.emptiedAt || reply.body.length > this.maxBytes / 4) return;
    let postIds: string[] = [];
    if (scope === 'any') {
      if (builtAtVersion !== this.generation) return;
    } else {
      postIds = idsNamedIn(key, reply.body);
      if (postIds.some((id) => (this.postChangedAt.get(id) ?? 0) > builtAtVersion)) return;
    }
    this.drop(key);
    this.entries.set(key, { ...reply, storedAt: this.now(), postIds: scope === 'any' ? null : postIds });
    this.bytes += reply.body.length;
    if (scope === 'any') this.anyScope.add(key);
    for (const id of postIds) {
      const keys = this.byPost.get(id);
      if (keys) keys.add(key);
      else this.byPost.set(id, new Set([key]));
    }
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  /**
   * One build per key at a time: when a reply expires or a write drops it, the requests that miss
   * together would each build it (fifty at once under load). The first to miss calls startBuild
   * and, once its reply is kept or not, finishBuild; the others wait on whenBuilt, then look again.
   * A build that never finishes lets its waiters go after BUILD_WAIT_MS.
   */
  startBuild(key: string): void {
    if (this.building.has(key)) return;
    let release: () => void = () => undefined;
    this.built.set(key, new Promise<void>((resolve) => (release = resolve)));
    const timer = setTimeout(() => this.finishBuild(key), BUILD_WAIT_MS);
    timer.unref();
    this.building.set(key, () => {
      clearTimeout(timer);
      release();
    });
  }

  finishBuild(key: string): void {
    const finish = this.building.get(key);
    if (!finish) return;
    this.building.delete(key);
    this.built.delete(key);
    finish();
  }

  /** Resolves when the reply being built for `key` is kept or not; undefined when none is being built. */
  whenBuilt(key: string): Promise<void> | undefined {
    return this.built.get(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
    if (entry.postIds === null) {
      this.anyScope.delete(key);
      return;
    }
    for (const id of entry.postIds) {
      const keys = this.byPost.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.byPost.delete(id);
    }
  }
}

export type CacheScope = 'posts' | 'any';

/** The longest a request waits for another one's build of the reply it wants. */
const BUILD_WAIT_MS = 2000;

interface Kept extends CachedReply {
  /** The ids its key and text name (scope 'posts'); null for scope 'any'. */
  postIds: string[] | null;
}

const OBJECT_ID = /[0-9a-f]{24}/g;

/** Every id a reply's URL and text name: its posts, and also their authors and comments (harmless). */
function idsNamedIn(key: string, body: Buffer): string[] {
  return [...new Set([...(key.match(OBJECT_ID) ?? []), ...(body.toString('latin1').match(OBJECT_ID) ?? [])])];
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

/** A like, an unlike, a comment, its edit or deletion: the post it changes (see postOfWrite). */
const ONE_POST_BODY = /^\/api\/(like|unlike|comment)(\?|$)/;
const ONE_POST_PATH = /^\/api\/comment\/([0-9a-f]{24})\/[^/?]+(\?|$)/;

/**
 * The post a write changes when it changes exactly one (ReadCache.invalidatePost), else null. The
 * body is parsed by then (preHandler, onResponse). A like's or comment's other effects are on
 * replies of scope 'any' (rankings, profiles), which every change drops.
 */
function postOfWrite(request: FastifyRequest): string | null {
  const path = ONE_POST_PATH.exec(request.url);
  if (path) return path[1];
  if (!ONE_POST_BODY.test(request.url)) return null;
  const postId = (request.body as { postId?: unknown } | undefined)?.postId;
  return typeof postId === 'string' ? postId : null;
}

const POSTS_IN_ORDER = /^\/api\/(posts\/[0-9a-f]{24}(\/comments)?|posts|userposts\/[0-9a-f]{24})(\?|$)/;

/**
 * A reply's scope (ReadCache.set): 'posts' for the lists of posts in a fixed order and a post with
 * its conversation, whose bytes change only with the posts they name; 'any' for the rest (the hot
 * feed and top posts rank by likes and comments, a profile counts, search ranks).
 */
export function scopeOfUrl(url: string): CacheScope {
  if (!POSTS_IN_ORDER.test(url)) return 'any';
  return /[?&]feed=hot(&|$)/.test(url) ? 'any' : 'posts';
}

/**
 * Must be registered after registerConditionalGet (so a kept reply has its ETag) and before
 * compression (so what is kept is the JSON itself).
 */
export function registerReadCache(fastify: FastifyInstance, cache: ReadCache): void {
  if (!cache.enabled) return;
  const builtAt = new WeakMap<FastifyRequest, number>();
  const build = (request: FastifyRequest): void => {
    builtAt.set(request, cache.version);
    cache.startBuild(request.url);
  };
  const finish = (request: FastifyRequest): void => {
    if (builtAt.has(request)) cache.finishBuild(request.url);
  };
  const isWrite = (request: FastifyRequest) => request.method !== 'GET' && request.method !== 'HEAD';
  const isOnePostWrite = (request: FastifyRequest) =>
    ONE_POST_BODY.test(request.url) || ONE_POST_PATH.test(request.url);
  /** Writes whose end was taken in onSend: onResponse takes it only for the others. */
  const ended = new WeakSet<FastifyRequest>();
  /** A write's start (with `bodyKnown` false: a one-post write waits for its body) and end. */
  const changed = (request: FastifyRequest, bodyKnown: boolean): void => {
    if (INVISIBLE_TO_VISITORS.test(request.url)) {
      cache.personalChange();
      return;
    }
    const onePost = isOnePostWrite(request);
    if (onePost && !bodyKnown) return;
    const postId = onePost ? postOfWrite(request) : null;
    if (postId === null) cache.invalidate();
    else cache.invalidatePost(postId);
  };

  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (isWrite(request)) {
      changed(request, false);
      done();
      return;
    }
    if (request.headers.authorization !== undefined || !CACHEABLE.test(request.url)) {
      done();
      return;
    }
    const hit = cache.get(request.url);
    if (hit) {
      void reply.header('content-type', hit.contentType).header('etag', hit.etag).send(hit.body);
      return;
    }
    const building = cache.whenBuilt(request.url);
    if (!building) {
      build(request);
      done();
      return;
    }
    // Another request is building this reply: wait for it, then take it, or build it after all.
    void building.then(() => {
      const kept = cache.get(request.url);
      if (kept) void reply.header('content-type', kept.contentType).header('etag', kept.etag).send(kept.body);
      else {
        build(request);
        done();
      }
    });
  });

  // A one-post write's start, once its body is parsed and before Nest runs it.
  fastify.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done) => {
    if (isWrite(request) && isOnePostWrite(request)) changed(request, true);
    done();
  });

  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    // A write's end, before its reply leaves: a read its client sends next finds nothing older kept.
    if (isWrite(request)) {
      changed(request, true);
      ended.add(request);
    }
    const version = builtAt.get(request);
    const etag = reply.getHeader('etag');
    if (version !== undefined && reply.statusCode === 200 && typeof payload === 'string' && typeof etag === 'string') {
      const contentType = String(reply.getHeader('content-type'));
      cache.set(request.url, { body: Buffer.from(payload), etag, contentType }, version, scopeOfUrl(request.url));
    }
    finish(request);
    done(null, payload);
  });

  // A reply that never went through onSend (an aborted request): its write's end, once it is over.
  fastify.addHook('onResponse', (request: FastifyRequest, _reply: FastifyReply, done) => {
    if (isWrite(request) && !ended.has(request)) changed(request, true);
    finish(request);
    done();
  });
}
