import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/auth-user';
import {
  baseOf,
  type ReaderReplyBase,
  readerReply,
  type ReplyShape,
  SHAPE_OF_ROUTE,
  toSharedReply,
} from '../reader-state/reader-overlay';
import type { ReaderStateService } from '../reader-state/reader-state.service';
import { weakEtag } from './etag';
import { type CachedReply, type ReadCache, scopeOfUrl } from './read-cache';

/** Signed-in entries live beside the visitors' in one cache, under keys no URL can start with. */
const SIGNED_IN = '\u0000';

/** Feeds whose posts are picked for the reader (whom they follow, their tags): one entry each. */
const READER_FEEDS = new Set(['following', 'tags']);

interface Pending {
  key: string;
  shape: ReplyShape;
  compact: boolean;
  version: number;
  personalVersion: number;
  /** A profile kept for one reader who mutes or blocks: its `viewer` is theirs. */
  keepViewer: boolean;
}

/**
 * Signed-in members' reads from memory (docs/decisions/053-signed-in-read-cache.md). Most page
 * views are members', and a reply for a member without personal filters is a visitor's reply plus
 * their own likes and bookmarks: the reply is kept once, parsed, and each member's copy adds
 * theirs from one indexed statement (reader-state.repository.ts), before Nest runs.
 *
 * - Which reads: the routes of reader-overlay.ts (feeds, a post, its conversation, top posts, a
 *   user's posts, a profile), GET, with a token verified before, for a member (role user); any
 *   other request goes to Nest as before.
 * - The reply kept: for a member who mutes, blocks and mutes tags of no one, a visitor's (the
 *   read cache's entry for the URL) or one Nest built for such a member, with the member's likes
 *   and bookmarks taken out. The following and tags feeds pick posts for their reader, and a
 *   reader who mutes or blocks reads lists without those posts: theirs are kept per reader (and
 *   per what they mute and block). A reply with anything removed by the moderators in it is never
 *   used (its author sees it whole).
 * - Never stale for a write through this instance: the read cache empties on every write and
 *   keeps nothing built across one; a write no visitor sees (a bookmark, a mute) changes a second
 *   version, so nothing built across it is shared either. Several instances: OwnWriteMarks.
 */
export function registerSignedInReadCache(
  fastify: FastifyInstance,
  cache: ReadCache,
  readers: ReaderStateService,
): void {
  if (!cache.enabled) return;
  const pending = new WeakMap<FastifyRequest, Pending>();

  // Callback style: most requests (visitors', writes) leave at once, without a promise to settle.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (request.method !== 'GET' || request.headers.authorization === undefined) {
      done();
      return;
    }
    const shape = SHAPE_OF_ROUTE[request.routeOptions.url ?? ''];
    if (shape === undefined) {
      done();
      return;
    }
    answerFromMemory(request, reply, shape).then(
      (answered) => {
        if (!answered) done();
      },
      (error: unknown) => done(error as Error),
    );
  });

  /** True when the reply was sent from memory; false: let Nest build it. */
  async function answerFromMemory(request: FastifyRequest, reply: FastifyReply, shape: ReplyShape): Promise<boolean> {
    const version = cache.version;
    const personalVersion = cache.personalVersion;
    const claimed = await readers.claimedReader(request.headers.authorization);
    if (!claimed) return false;
    const query = request.query as Record<string, unknown>;
    const compact = query.view === 'compact';
    const perReader = shape === 'posts' && READER_FEEDS.has(String(query.feed));
    const stamp = { version, personalVersion };
    // The kept reply for this reader: the one every member without filters shares (or a
    // visitor's), or theirs alone for the feeds picked for them and for a reader who mutes or
    // blocks (keyed by what they mute and block, so a new mute misses it).
    let key = perReader ? `${SIGNED_IN}${claimed.userId}${SIGNED_IN}${request.url}` : `${SIGNED_IN}${request.url}`;
    let entry = await settled(cache, key, perReader ? null : request.url);
    let base = entry ? baseFor(entry, shape, compact) : null;
    let found = await readers.readerAmong(claimed, base?.postIds ?? [], stamp);
    if (!found) return false;
    const filters = found.state.filters;
    if (filters !== null) {
      key = `${SIGNED_IN}${claimed.userId}${SIGNED_IN}${filters}${SIGNED_IN}${request.url}`;
      entry = await settled(cache, key, null);
      base = entry ? baseFor(entry, shape, compact) : null;
      // Their likes and bookmarks among this reply's posts (from the memo, mostly).
      if (base) found = await readers.readerAmong(claimed, base.postIds, stamp);
      if (!found || found.state.filters !== filters) return false;
    }
    const { reader, state } = found;
    if (!entry || !base) {
      pending.set(request, { key, shape, compact, version, personalVersion, keepViewer: filters !== null });
      cache.startBuild(key);
      return false;
    }
    sendOwnCopy(reply, entry, readerReply(base, reader.id, state));
    return true;
  }

  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const wanted = pending.get(request);
    // Whether a write changed what the reply shows meanwhile is the cache's to say (ReadCache.set).
    if (
      wanted !== undefined &&
      reply.statusCode === 200 &&
      typeof payload === 'string' &&
      wanted.personalVersion === cache.personalVersion
    ) {
      const shared = toSharedReply(payload, wanted.shape, wanted.compact, wanted.keepViewer);
      if (shared) {
        const contentType = String(reply.getHeader('content-type'));
        const body = Buffer.from(shared.text);
        const base = { body, etag: weakEtag(body), contentType, readerBase: shared.base };
        cache.set(wanted.key, base, wanted.version, scopeOfUrl(request.url));
      }
    }
    if (wanted !== undefined) cache.finishBuild(wanted.key);
    done(null, payload);
  });

  // A build whose reply never went through onSend (an aborted request) lets its waiters go too.
  fastify.addHook('onResponse', (request: FastifyRequest, _reply: FastifyReply, done) => {
    const wanted = pending.get(request);
    if (wanted !== undefined) cache.finishBuild(wanted.key);
    done();
  });

  if (readers.marksShared) {
    // Several instances: a member's write marks them before its reply goes out (OwnWriteMarks).
    fastify.addHook('onSend', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      const user = (request as FastifyRequest & { user?: AuthUser | null }).user;
      if (request.method !== 'GET' && request.method !== 'HEAD' && user) await readers.wrote(user.id);
      return payload;
    });
  }
}

/**
 * The reply kept under `key` (else under `alsoKey`, a visitor's), waiting first for a build of
 * either in progress (ReadCache.startBuild).
 */
async function settled(cache: ReadCache, key: string, alsoKey: string | null): Promise<CachedReply | undefined> {
  const lookUp = () => cache.get(key) ?? (alsoKey === null ? undefined : cache.get(alsoKey));
  const entry = lookUp();
  if (entry) return entry;
  const building = cache.whenBuilt(key) ?? (alsoKey === null ? undefined : cache.whenBuilt(alsoKey));
  if (!building) return undefined;
  await building;
  return lookUp();
}

function baseFor(entry: CachedReply, shape: ReplyShape, compact: boolean): ReaderReplyBase | null {
  if (entry.readerBase === undefined) entry.readerBase = baseOf(entry.body.toString(), shape, compact);
  return entry.readerBase;
}

function sendOwnCopy(reply: FastifyReply, entry: CachedReply, own: string | null): void {
  void reply.header('content-type', entry.contentType);
  if (own === null) {
    void reply.header('etag', entry.etag).send(entry.body);
    return;
  }
  const body = Buffer.from(own);
  void reply.header('etag', weakEtag(body)).send(body);
}
