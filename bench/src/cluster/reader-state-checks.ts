import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { field, list, signUpAndIn, text } from '@techit/testkit/api-client';
import { type ApiReply, call, expectStatus, expectThat } from './api-call';
import { redisExists } from './cluster-services';
import { type CheckOutcome, outcome } from './shared-state-checks';

/** A member's own-write mark, as backend/src/reader-state/own-write-marks.ts names it. */
const MARK_PREFIX = 'techit:wrote:';
/** own-write-marks.ts MARGIN_MS: a mark lives READ_CACHE_TTL_MS plus this. */
const MARK_MARGIN_MS = 1000;
/** Room for a busy shared machine on top of a bound the app itself sets. */
const SLACK_MS = 2000;
const POLL_MS = 50;
const POSTS = 4;
const MEMBERS = 4;
/** Every write of the own-writes check, in this order, by each member on a post of their own. */
const OWN_WRITES = ['like', 'bookmark', 'comment', 'follow', 'unlike', 'unbookmark', 'unfollow'] as const;
type OwnWrite = (typeof OWN_WRITES)[number];

export interface ReaderStateOptions {
  balancerUrl: string;
  instanceUrls: string[];
  redisUrl: string;
  tag: string;
  /** The instances' READ_CACHE_TTL_MS. */
  cacheTtlMs: number;
}

export interface ReaderStateOutcome {
  /** Members and a visitor reading the same kept pages see only their own state. */
  isolation: CheckOutcome;
  /** Another member's write reaches every instance within the TTL (and is served stale until then). */
  othersWrites: CheckOutcome;
  /** A member's own write shows at once on their next read, whichever instance answers it. */
  ownWrites: CheckOutcome;
  figures: {
    isolationReplies: number;
    marksExpiredAfterMs: number;
    othersWriteFreshAfterMs: Record<string, number>;
    othersWriteStaleFirstReads: number;
    ownWrites: number;
    ownWriteReads: number;
    ownWriteReadsOnAnotherInstance: number;
  };
}

interface Reader {
  /** For the report: a member's user name, or "visitor". */
  name: string;
  /** null: a visitor (no token). */
  id: string | null;
  token: string | undefined;
}

/** What is true of one of the check's posts: who likes it, who saved it, its comments' texts. */
interface PostTruth {
  likers: Set<string>;
  bookmarkedBy: Set<string>;
  comments: Set<string>;
}

/** What the check has written, which every reply is compared with. */
interface Truth {
  authorId: string;
  postIds: string[];
  posts: Map<string, PostTruth>;
  /** The author's followers. */
  followers: Set<string>;
}

/** A page a reader reads, and how its reply must show what was written. */
interface Page {
  path: string;
  verify(reply: ApiReply, reader: Reader, truth: Truth): string[];
}

/**
 * The signed-in read cache (docs/decisions/053-signed-in-read-cache.md) behind the balancer, each
 * instance with its own cache and the own-write marks in the shared Redis
 * (docs/decisions/054-signed-in-cache-across-instances.md):
 *
 * 1. isolation: members who each like and save different posts, and a visitor, read the same
 *    pages through nginx, turn about, once no member has an own-write mark left (so a member's
 *    read is answered from the shared reply kept by whoever read first, plus their own state);
 *    every reply's `likes` (compact), `bookmarked` and profile `viewer` are its reader's.
 * 2. others' writes: with the page kept on every instance, another member likes a post; each
 *    instance must show it to a member and a visitor within READ_CACHE_TTL_MS, the instance that
 *    took the write at once, and at least one other instance must first answer the earlier state
 *    (proof that the replies came from a cache at all).
 * 3. own writes: with the pages kept on every instance, a member likes, saves, comments, follows
 *    and undoes each; their very next reads through nginx must show the write, and some of those
 *    reads must be answered by another instance than the write.
 */
export async function checkReaderState(options: ReaderStateOptions): Promise<ReaderStateOutcome> {
  const { balancerUrl, instanceUrls, redisUrl, tag, cacheTtlMs } = options;
  const password = `cluster-${tag}-password`;
  const author = await signUpAndIn(balancerUrl, { userName: `cache_author_${tag}`, password });
  const members: Reader[] = [];
  for (let index = 0; index < MEMBERS; index += 1) {
    const userName = `cache_member${index}_${tag}`;
    const signedIn = await signUpAndIn(balancerUrl, { userName, password });
    members.push({ name: userName, id: signedIn.id, token: signedIn.token });
  }
  const visitor: Reader = { name: 'visitor', id: null, token: undefined };
  const truth: Truth = { authorId: author.id, postIds: [], posts: new Map(), followers: new Set() };
  for (let index = 0; index < POSTS; index += 1) {
    const reply = await call(balancerUrl, 'POST', '/api/createpost', {
      token: author.token,
      json: { title: `Cache ${tag} #${index}`, desc: `Read by ${MEMBERS} members and a visitor` },
    });
    expectStatus(reply, 201, `post ${index}`);
    const id = text(field(reply.body, 'post'), '_id');
    truth.postIds.push(id);
    truth.posts.set(id, { likers: new Set(), bookmarkedBy: new Set(), comments: new Set() });
  }
  const figures: ReaderStateOutcome['figures'] = {
    isolationReplies: 0,
    marksExpiredAfterMs: 0,
    othersWriteFreshAfterMs: {},
    othersWriteStaleFirstReads: 0,
    ownWrites: 0,
    ownWriteReads: 0,
    ownWriteReadsOnAnotherInstance: 0,
  };
  const isolation = await outcome(() =>
    checkIsolation(balancerUrl, instanceUrls.length, redisUrl, cacheTtlMs, members, visitor, truth, figures),
  );
  const othersWrites = await outcome(() =>
    checkOthersWrite(balancerUrl, instanceUrls, cacheTtlMs, author, members[1], visitor, truth, figures),
  );
  const ownWrites = await outcome(() =>
    checkOwnWrites(balancerUrl, instanceUrls, tag, members, visitor, truth, figures),
  );
  return { isolation, othersWrites, ownWrites, figures };
}

async function checkIsolation(
  balancerUrl: string,
  instances: number,
  redisUrl: string,
  cacheTtlMs: number,
  members: Reader[],
  visitor: Reader,
  truth: Truth,
  figures: ReaderStateOutcome['figures'],
): Promise<string> {
  const { postIds } = truth;
  // Each member likes two posts and saves a third, no two members the same ones.
  let lastWriteAt = 0;
  for (const [index, member] of members.entries()) {
    for (const [kind, postId] of [
      ['like', postIds[index % POSTS]],
      ['like', postIds[(index + 1) % POSTS]],
      ['bookmark', postIds[(index + 2) % POSTS]],
    ] as const) {
      await write(balancerUrl, member, kind, postId, truth, '');
      lastWriteAt = performance.now();
    }
  }
  // While a member's own-write mark lives, every read of theirs is built by Nest and none is
  // kept: wait for the marks to go (a state in Redis), so what follows reads the cache.
  const keys = members.map((member) => `${MARK_PREFIX}${member.id ?? ''}`);
  const bound = cacheTtlMs + MARK_MARGIN_MS + SLACK_MS;
  for (;;) {
    const marked = await redisExists(redisUrl, keys);
    if (marked === 0) break;
    expectThat(
      performance.now() - lastWriteAt < bound,
      `${marked} members still had an own-write mark ${bound} ms after their last write`,
    );
    await sleep(POLL_MS);
  }
  figures.marksExpiredAfterMs = Math.round(performance.now() - lastWriteAt);

  // Turn about, each round started by another reader, so each reader is served pages another
  // built and kept; twice round the instances, so each instance serves every reader.
  const readers = [...members, visitor];
  const problems: string[] = [];
  const perInstance: Record<string, number> = {};
  const rounds = 2 * instances;
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < readers.length; turn += 1) {
      const reader = readers[(round + turn) % readers.length];
      for (const page of pagesFor(postIds[round % POSTS], truth)) {
        const reply = await read(balancerUrl, page.path, reader);
        perInstance[reply.instance] = (perInstance[reply.instance] ?? 0) + 1;
        figures.isolationReplies += 1;
        const found = page.verify(reply, reader, truth);
        if (found.length > 0) problems.push(`${reader.name} ${page.path} via ${reply.instance}: ${found.join('; ')}`);
      }
    }
  }
  expectThat(
    problems.length === 0,
    `${problems.length} of ${figures.isolationReplies} replies were not their reader's: ${sample(problems)}`,
  );
  const served = Object.keys(perInstance).filter((address) => address !== '');
  expectThat(served.length > 1, `every reply came from one instance: ${JSON.stringify(perInstance)}`);
  return (
    `${figures.isolationReplies} replies (${Object.values(perInstance).join('+')} per instance) to ${members.length} members and a visitor ` +
    `reading the same feed, posts, comments, user posts and profile in turn, once no own-write mark was left (${figures.marksExpiredAfterMs} ms after the last write): ` +
    `each reply's likes, bookmarked and viewer were its reader's own`
  );
}

async function checkOthersWrite(
  balancerUrl: string,
  instanceUrls: string[],
  cacheTtlMs: number,
  writer: { id: string; token: string },
  member: Reader,
  visitor: Reader,
  truth: Truth,
  figures: ReaderStateOutcome['figures'],
): Promise<string> {
  const postId = truth.postIds[0];
  const page = postPage(postId, true);
  // Keep the page on every instance, for the member and for visitors, just before the write.
  for (const url of instanceUrls) {
    for (const reader of [member, visitor]) {
      const reply = await read(url, page.path, reader);
      const problems = page.verify(reply, reader, truth);
      expectThat(problems.length === 0, `before the write, ${reader.name} on ${url}: ${problems.join('; ')}`);
    }
  }
  const likersBefore = new Set(truth.posts.get(postId)?.likers);
  const written = await write(
    balancerUrl,
    { name: 'author', id: writer.id, token: writer.token },
    'like',
    postId,
    truth,
    '',
  );
  const writtenAt = performance.now();
  const bound = cacheTtlMs + SLACK_MS;
  const before: Truth = { ...truth, posts: new Map(truth.posts) };
  before.posts.set(postId, { ...(truth.posts.get(postId) as PostTruth), likers: likersBefore });
  const details: string[] = [];
  for (const url of instanceUrls) {
    const address = new URL(url).host;
    const onWriter = address === written.instance;
    for (const reader of [member, visitor]) {
      let first = true;
      for (;;) {
        const reply = await read(url, page.path, reader);
        const problems = page.verify(reply, reader, truth);
        if (problems.length === 0) break;
        // Until it is fresh, it must be exactly the state before the write: older, never another's.
        const stale = page.verify(reply, reader, before);
        expectThat(stale.length === 0, `${reader.name} on ${address}: ${problems.join('; ')}`);
        expectThat(!onWriter, `the instance that took the write, ${address}, showed ${reader.name} the earlier state`);
        if (first) figures.othersWriteStaleFirstReads += 1;
        first = false;
        expectThat(
          performance.now() - writtenAt < bound,
          `${reader.name} on ${address} still saw the earlier state ${bound} ms after the write`,
        );
        await sleep(POLL_MS);
      }
      const after = Math.round(performance.now() - writtenAt);
      figures.othersWriteFreshAfterMs[`${address} ${reader.id === null ? 'visitor' : 'member'}`] = after;
      if (!onWriter) details.push(`${reader.id === null ? 'visitor' : 'member'} on ${address} ${after} ms`);
    }
  }
  expectThat(
    figures.othersWriteStaleFirstReads > 0,
    'no other instance answered the earlier state first: the replies did not come from a cache',
  );
  return (
    `a like through ${written.instance}: fresh at once there; elsewhere after ${details.join(', ')} (bound ${bound} ms: READ_CACHE_TTL_MS + ${SLACK_MS} ms); ` +
    `${figures.othersWriteStaleFirstReads} first reads on the other instances were the earlier state, from their caches`
  );
}

async function checkOwnWrites(
  balancerUrl: string,
  instanceUrls: string[],
  tag: string,
  members: Reader[],
  visitor: Reader,
  truth: Truth,
  figures: ReaderStateOutcome['figures'],
): Promise<string> {
  const problems: string[] = [];
  for (const [index, member] of members.entries()) {
    // A post this member neither likes nor saved yet.
    const postId = truth.postIds[(index + 3) % POSTS];
    for (const kind of OWN_WRITES) {
      // Every instance keeps the pages as they are before the write (a visitor's and this
      // member's reads), so an instance that missed the write would answer the earlier state.
      // Not compared with `truth`: they may show other readers' last writes late (within the TTL).
      for (const url of instanceUrls) {
        for (const reader of [visitor, member]) {
          for (const page of pagesFor(postId, truth)) expectStatus(await read(url, page.path, reader), 200, page.path);
        }
      }
      const written = await write(balancerUrl, member, kind, postId, truth, `own write ${tag} m${index}`);
      figures.ownWrites += 1;
      // At once, through the balancer: whichever instance answers must show the write.
      for (const page of pagesFor(postId, truth)) {
        const reply = await read(balancerUrl, page.path, member);
        figures.ownWriteReads += 1;
        if (reply.instance !== written.instance) figures.ownWriteReadsOnAnotherInstance += 1;
        const found = page.verify(reply, member, truth);
        if (found.length > 0)
          problems.push(
            `${member.name} ${kind} via ${written.instance}, then ${page.path} via ${reply.instance}: ${found.join('; ')}`,
          );
      }
    }
  }
  expectThat(
    problems.length === 0,
    `${problems.length} of ${figures.ownWriteReads} reads did not show the reader's own last write (${figures.ownWriteReadsOnAnotherInstance} were answered by another instance than the write's): ${sample(problems)}`,
  );
  expectThat(
    figures.ownWriteReadsOnAnotherInstance > 0,
    `all ${figures.ownWriteReads} reads were answered by the instance that took the write`,
  );
  return (
    `${figures.ownWrites} writes (${OWN_WRITES.join(', ')}; ${members.length} members), each followed at once by ${pagesFor(truth.postIds[0], truth).length} reads through nginx ` +
    `with the pages kept on every instance: ${figures.ownWriteReadsOnAnotherInstance} of ${figures.ownWriteReads} reads answered by another instance than the write's, every one showing the write`
  );
}

/** Sends one write through `baseUrl`, checks its reply and records it in `truth`. */
async function write(
  baseUrl: string,
  reader: Reader,
  kind: OwnWrite,
  postId: string,
  truth: Truth,
  commentText: string,
): Promise<ApiReply> {
  const id = reader.id ?? '';
  const post = truth.posts.get(postId) as PostTruth;
  const send = (path: string, json: object): Promise<ApiReply> =>
    call(baseUrl, 'PUT', path, { token: reader.token, json });
  let reply: ApiReply;
  switch (kind) {
    case 'like':
    case 'unlike':
      reply = await send(`/api/${kind}`, { postId });
      if (kind === 'like') post.likers.add(id);
      else post.likers.delete(id);
      expectStatus(reply, 200, `${reader.name} ${kind}`);
      expectThat(
        field(reply.body, 'likesCount') === post.likers.size,
        `${kind}: likesCount is not ${post.likers.size}`,
      );
      break;
    case 'bookmark':
    case 'unbookmark':
      reply = await send(`/api/${kind}`, { postId });
      if (kind === 'bookmark') post.bookmarkedBy.add(id);
      else post.bookmarkedBy.delete(id);
      expectStatus(reply, 200, `${reader.name} ${kind}`);
      expectThat(field(reply.body, 'bookmarked') === (kind === 'bookmark'), `${kind}: bookmarked is wrong`);
      break;
    case 'comment':
      reply = await send('/api/comment', { postId, text: commentText });
      post.comments.add(commentText);
      expectStatus(reply, 200, `${reader.name} comment`);
      expectThat(
        field(reply.body, 'commentsCount') === post.comments.size,
        `comment: commentsCount is not ${post.comments.size}`,
      );
      break;
    case 'follow':
    case 'unfollow':
      reply = await send(
        `/api/${kind}`,
        kind === 'follow' ? { followId: truth.authorId } : { unfollowId: truth.authorId },
      );
      if (kind === 'follow') truth.followers.add(id);
      else truth.followers.delete(id);
      expectStatus(reply, 200, `${reader.name} ${kind}`);
      expectThat(
        list(reply.body, 'following').includes(truth.authorId) === (kind === 'follow'),
        `${kind}: following is wrong`,
      );
      break;
  }
  return reply;
}

/** The pages whose replies carry what the check writes: a feed, one post both ways, its comments, the author's posts and profile. */
function pagesFor(postId: string, truth: Truth): Page[] {
  return [
    postsPage('/api/posts?feed=for-you&page=1&limit=10&view=compact', 'posts', true, truth.postIds),
    postPage(postId, true),
    postPage(postId, false),
    commentsPage(postId),
    postsPage(`/api/userposts/${truth.authorId}`, 'userPosts', false, truth.postIds),
    profilePage(truth.authorId),
  ];
}

function postPage(postId: string, compact: boolean): Page {
  const path = `/api/posts/${postId}${compact ? '?view=compact' : ''}`;
  return {
    path,
    verify: (reply, reader, truth) => {
      if (reply.status !== 200) return [`answered ${reply.status}`];
      return postProblems(field(reply.body, 'post'), reader, truth, compact);
    },
  };
}

function postsPage(path: string, key: string, compact: boolean, expectedIds: string[]): Page {
  return {
    path,
    verify: (reply, reader, truth) => {
      if (reply.status !== 200) return [`answered ${reply.status}`];
      const posts = list(reply.body, key).filter((post) => truth.posts.has(text(post, '_id')));
      const problems = posts.flatMap((post) => postProblems(post, reader, truth, compact));
      if (posts.length !== expectedIds.length)
        problems.push(`lists ${posts.length} of the ${expectedIds.length} posts`);
      return problems;
    },
  };
}

function commentsPage(postId: string): Page {
  return {
    path: `/api/posts/${postId}/comments`,
    verify: (reply, _reader, truth) => {
      if (reply.status !== 200) return [`answered ${reply.status}`];
      const texts = list(reply.body, 'comments').map((comment) => text(comment, 'text'));
      const expected = truth.posts.get(postId)?.comments ?? new Set<string>();
      return sameSet(texts, expected)
        ? []
        : [`comments ${JSON.stringify(texts)}, expected ${JSON.stringify([...expected])}`];
    },
  };
}

function profilePage(userId: string): Page {
  return {
    path: `/api/user/${userId}`,
    verify: (reply, reader, truth) => {
      if (reply.status !== 200) return [`answered ${reply.status}`];
      const problems: string[] = [];
      const followers = list(field(reply.body, 'user'), 'followers');
      if (!sameSet(followers, truth.followers))
        problems.push(`followers ${JSON.stringify(followers)}, expected ${JSON.stringify([...truth.followers])}`);
      // A member reading someone else's profile gets their own viewer flags; a visitor none.
      const viewer = field(reply.body, 'viewer');
      const expected = reader.id === null ? undefined : { blocks: false, mutes: false };
      if (JSON.stringify(viewer) !== JSON.stringify(expected))
        problems.push(`viewer ${JSON.stringify(viewer)}, expected ${JSON.stringify(expected)}`);
      return problems;
    },
  };
}

/** A post as `reader` must see it: the counts, and their own like (compact) and bookmark. */
function postProblems(post: unknown, reader: Reader, truth: Truth, compact: boolean): string[] {
  const id = text(post, '_id');
  const expected = truth.posts.get(id);
  if (!expected) return [`post ${id} is not the one asked for`];
  const problems: string[] = [];
  const likes = list(post, 'likes');
  const likesCount = field(post, 'likesCount');
  const commentsCount = field(post, 'commentsCount');
  const bookmarked = field(post, 'bookmarked');
  if (likesCount !== expected.likers.size)
    problems.push(`post ${id} likesCount ${String(likesCount)}, expected ${expected.likers.size}`);
  if (commentsCount !== expected.comments.size)
    problems.push(`post ${id} commentsCount ${String(commentsCount)}, expected ${expected.comments.size}`);
  // Compact: only the reader's own like; full: every liker, the same for everyone.
  const ownLike = reader.id !== null && expected.likers.has(reader.id) ? [reader.id] : [];
  const wantedLikes = compact ? ownLike : [...expected.likers];
  if (!sameSet(likes, new Set(wantedLikes)))
    problems.push(`post ${id} likes ${JSON.stringify(likes)}, expected ${JSON.stringify(wantedLikes)}`);
  const ownBookmark = reader.id !== null && expected.bookmarkedBy.has(reader.id);
  if (bookmarked !== ownBookmark)
    problems.push(`post ${id} bookmarked ${String(bookmarked)}, expected ${String(ownBookmark)}`);
  return problems;
}

async function read(baseUrl: string, path: string, reader: Reader): Promise<ApiReply> {
  return call(baseUrl, 'GET', path, { token: reader.token });
}

function sameSet(listed: unknown[], expected: Set<string>): boolean {
  return listed.length === expected.size && listed.every((value) => typeof value === 'string' && expected.has(value));
}

function sample(problems: string[]): string {
  return problems.slice(0, 3).join(' | ');
}
