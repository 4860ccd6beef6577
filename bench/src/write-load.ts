import type autocannon from 'autocannon';
import type { SeedSummary } from './data-set';
import { field, list } from '@techit/testkit/api-client';

export interface Reader {
  userId: string;
  userName: string;
  token: string;
}

/** What the write replies said, counted while the writes run (warm-up included: a 5xx is a 5xx). */
export interface WriteProblems {
  replies: number;
  replyBytes: number;
  serverErrors: number;
  sqliteBusy: number;
  /** The first few bodies of 5xx / SQLITE_BUSY replies, to show in the report. */
  samples: string[];
}

export function noProblems(): WriteProblems {
  return { replies: 0, replyBytes: 0, serverErrors: 0, sqliteBusy: 0, samples: [] };
}

const SIGN_IN_CONCURRENCY = 4;
const MAX_PAGE_SIZE = 50;

/**
 * Signs in up to `wanted` seeded users (argon2 makes each take a while on purpose, so a few at
 * a time). Their names come from the landmarks and from the authors of feed pages: the API has no
 * user list, and every seeded account shares the summary's password.
 */
export async function signInReaders(baseUrl: string, summary: SeedSummary, wanted: number): Promise<Reader[]> {
  const names = new Set<string>([summary.landmarks.signInUserName, summary.landmarks.heavyFollowerUserName]);
  for (let page = 1; page <= 20 && names.size < wanted; page += 1) {
    const reply = await getJson(`${baseUrl}/api/posts?feed=for-you&page=${page}&limit=${MAX_PAGE_SIZE}&view=compact`);
    const posts = list(reply, 'posts');
    if (posts.length === 0) break;
    for (const post of posts) {
      const name = field(field(post, 'postedBy'), 'userName');
      if (typeof name === 'string' && names.size < wanted) names.add(name);
    }
  }
  const readers = await signInNames(baseUrl, summary.password, [...names]);
  if (readers.length === 0) throw new Error('No seeded user could sign in');
  return readers;
}

/**
 * Signs in these seeded users (a few at a time: argon2 is slow on purpose); answers those who
 * could, in no particular order, and warns about the others.
 */
export async function signInNames(baseUrl: string, password: string, names: readonly string[]): Promise<Reader[]> {
  const queueOrder = [...new Set(names)].filter((name) => name.length > 0);
  const queue = [...queueOrder];
  const readers: Reader[] = [];
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: SIGN_IN_CONCURRENCY }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const reply = await fetch(`${baseUrl}/api/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userName: name, password }),
        });
        const body: unknown = await reply.json().catch(() => null);
        const token = field(body, 'token');
        const userId = field(field(body, 'user'), '_id');
        if (reply.ok && typeof token === 'string' && typeof userId === 'string') {
          readers.push({ userId, userName: name, token });
        } else {
          failures.push(`${name}: ${reply.status}`);
        }
      }
    }),
  );
  if (failures.length > 0) console.warn(`  ${failures.length} sign-ins failed, e.g. ${failures[0]}`);
  // In the order asked for (the sign-ins finish in any order): the same readers come first every run.
  const order = new Map(queueOrder.map((name, index) => [name, index]));
  return readers.sort((a, b) => (order.get(a.userName) ?? 0) - (order.get(b.userName) ?? 0));
}

/**
 * The posts the writes touch: one page of 50 from the feed, a different page each run (so reused
 * data sets do not pile comments onto the same posts), never a landmark post the reads measure,
 * plus the viral post, whose row every like contends for. Never a post of one of the writers
 * either: a like or comment on someone else's post writes a notification in the same transaction
 * (issue 18), and the bench measures that cost, not the cheaper own-post path.
 */
export async function pickWritePosts(
  baseUrl: string,
  summary: SeedSummary,
  totalPosts: number,
  writers: readonly Reader[],
): Promise<string[]> {
  const { landmarks } = summary;
  // Pages 2 to 199: never the posts of for-you page 1, nor those around the 10,000th that the
  // deep-page and deep-cursor scenarios read.
  const span = Math.min(Math.floor(totalPosts / MAX_PAGE_SIZE), 199);
  const page = span > 1 ? 2 + (Math.floor(Date.now() / 1000) % (span - 1)) : 1;
  const reply = await getJson(`${baseUrl}/api/posts?feed=for-you&page=${page}&limit=${MAX_PAGE_SIZE}&view=compact`);
  const avoid = new Set([landmarks.viralPostId, landmarks.manyCommentsPostId]);
  const writerIds = new Set(writers.map((writer) => writer.userId));
  const ids = list(reply, 'posts')
    .filter((post) => !writerIds.has(String(field(field(post, 'postedBy'), '_id'))))
    .map((post) => field(post, '_id'))
    .filter((id): id is string => typeof id === 'string' && !avoid.has(id));
  const viral = await getJson(`${baseUrl}/api/posts/${landmarks.viralPostId}?view=compact`).catch(() => null);
  const viralAuthor = String(field(field(field(viral, 'post'), 'postedBy'), '_id'));
  if (landmarks.viralPostId && !writerIds.has(viralAuthor)) ids.push(landmarks.viralPostId);
  if (ids.length === 0) throw new Error('Found no posts to write to');
  return ids;
}

/**
 * Whether each `${userId}:${postId}` pair is liked, as the bench's own writes left it (a pair
 * it never touched counts as not liked): shared by every write phase of a run, so a later phase
 * unlikes what an earlier one liked instead of liking it twice.
 */
export type LikeState = Map<string, boolean>;

/**
 * Requests that walk (reader, post) pairs in order: consecutive requests use different readers,
 * so a pair is never in flight twice at once, and each visit flips that pair between like and
 * unlike. With `commentEvery` > 0, every n-th request is a comment instead.
 */
export function writeRequests(
  readers: Reader[],
  postIds: string[],
  commentEvery: number,
  problems: WriteProblems,
  liked: LikeState = new Map(),
): autocannon.Request[] {
  let sequence = 0;
  const onResponse = (status: number, body: string): void => {
    problems.replies += 1;
    problems.replyBytes += Buffer.byteLength(body);
    const busy = body.includes('SQLITE_BUSY');
    if (status >= 500) problems.serverErrors += 1;
    if (busy) problems.sqliteBusy += 1;
    if ((status >= 500 || busy) && problems.samples.length < 5)
      problems.samples.push(`${status} ${body.slice(0, 200)}`);
  };
  return [
    {
      method: 'PUT',
      path: '/api/like?view=compact',
      setupRequest: (request: autocannon.Request): autocannon.Request => {
        const i = sequence;
        sequence += 1;
        const reader = readers[i % readers.length];
        const postId = postIds[Math.floor(i / readers.length) % postIds.length];
        const headers = {
          ...request.headers,
          authorization: `Bearer ${reader.token}`,
          'content-type': 'application/json',
        };
        if (commentEvery > 0 && i % commentEvery === commentEvery - 1) {
          return {
            ...request,
            path: '/api/comment?view=compact',
            headers,
            body: JSON.stringify({ postId, text: `bench comment ${i}` }),
          };
        }
        const key = `${reader.userId}:${postId}`;
        const like = !liked.get(key);
        liked.set(key, like);
        // The compact replies the web app asks for (frontend post-paths.ts).
        const path = like ? '/api/like?view=compact' : '/api/unlike?view=compact';
        return { ...request, path, headers, body: JSON.stringify({ postId }) };
      },
      onResponse,
    },
  ];
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const reply = await fetch(url, { headers });
  if (!reply.ok) throw new Error(`GET ${url} answered ${reply.status}`);
  return reply.json();
}

/** What a background writer did while it ran. */
export interface BackgroundWrites {
  seconds: number;
  likes: number;
  comments: number;
  /** Replies per second of each kind over the writer's whole run (warm-ups and every round). */
  likesPerSecond: number;
  commentsPerSecond: number;
  /** Non-2xx replies and failed requests of both kinds. */
  failed: number;
  /** Requests that could not be sent on time because the writer was still waiting on as many. */
  dropped: number;
}

/** Ticks of the writer's clock: at each, it sends what the rate owes since the start. */
const WRITER_TICK_MS = 10;
/** A request still unanswered after this many others were owed is the server falling behind. */
const WRITER_MAX_IN_FLIGHT = 200;

/**
 * Issue 21's "visitors while 100 likes/s and 10 comments/s arrive": a steady stream of writes
 * beside a read load, from timers in this process. The rate is kept by the clock, not by the
 * replies: each tick sends what is owed since the start (so a late tick catches up), the like
 * walk is writeRequests' (consecutive likes by different writers, each visit flipping the pair),
 * and comments go to the same posts by the next writer in turn.
 */
export class BackgroundWriter {
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private stoppedAt = 0;
  private likesSent = 0;
  private commentsSent = 0;
  private likesDone = 0;
  private commentsDone = 0;
  private failed = 0;
  private dropped = 0;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly baseUrl: string,
    private readonly writers: readonly Reader[],
    private readonly postIds: readonly string[],
    private readonly likesPerSecond: number,
    private readonly commentsPerSecond: number,
    private readonly problems: WriteProblems,
    private readonly liked: LikeState,
  ) {}

  start(): void {
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.tick(), WRITER_TICK_MS);
  }

  /** Stops sending and waits for the replies still owed. */
  async stop(): Promise<BackgroundWrites> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stoppedAt = performance.now();
    await Promise.all([...this.inFlight]);
    const seconds = (this.stoppedAt - this.startedAt) / 1000;
    return {
      seconds,
      likes: this.likesDone,
      comments: this.commentsDone,
      likesPerSecond: seconds > 0 ? this.likesDone / seconds : 0,
      commentsPerSecond: seconds > 0 ? this.commentsDone / seconds : 0,
      failed: this.failed,
      dropped: this.dropped,
    };
  }

  private tick(): void {
    const elapsed = (performance.now() - this.startedAt) / 1000;
    while (this.likesSent < Math.floor(elapsed * this.likesPerSecond)) this.send('like', this.likesSent++);
    while (this.commentsSent < Math.floor(elapsed * this.commentsPerSecond)) this.send('comment', this.commentsSent++);
  }

  private send(kind: 'like' | 'comment', i: number): void {
    if (this.inFlight.size >= WRITER_MAX_IN_FLIGHT) {
      this.dropped += 1;
      return;
    }
    const writer = this.writers[i % this.writers.length];
    const postId = this.postIds[Math.floor(i / this.writers.length) % this.postIds.length];
    let path: string;
    let body: string;
    if (kind === 'comment') {
      path = '/api/comment?view=compact';
      body = JSON.stringify({ postId, text: `bench comment during reads ${i}` });
    } else {
      const key = `${writer.userId}:${postId}`;
      const like = !this.liked.get(key);
      this.liked.set(key, like);
      path = like ? '/api/like?view=compact' : '/api/unlike?view=compact';
      body = JSON.stringify({ postId });
    }
    const request = fetch(this.baseUrl + path, {
      method: 'PUT',
      headers: { authorization: `Bearer ${writer.token}`, 'content-type': 'application/json' },
      body,
    })
      .then(async (reply) => {
        const text = await reply.text();
        this.problems.replies += 1;
        this.problems.replyBytes += Buffer.byteLength(text);
        if (reply.status >= 500) this.problems.serverErrors += 1;
        if (text.includes('SQLITE_BUSY')) this.problems.sqliteBusy += 1;
        if ((reply.status >= 500 || text.includes('SQLITE_BUSY')) && this.problems.samples.length < 5) {
          this.problems.samples.push(`${reply.status} ${text.slice(0, 200)}`);
        }
        if (!reply.ok) this.failed += 1;
        else if (kind === 'like') this.likesDone += 1;
        else this.commentsDone += 1;
      })
      .catch(() => {
        this.failed += 1;
      })
      .finally(() => {
        this.inFlight.delete(request);
      });
    this.inFlight.add(request);
  }
}
