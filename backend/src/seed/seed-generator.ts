import { CATEGORIES, DEFAULT_THEME } from '@techit/contract/enums';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import { encodeCursor } from '../common/cursor';
import { RENDERER_VERSION } from '../markdown/markdown-renderer';
import { hotScore } from '../posts/hot-score';
import { titleKey } from '../search/search-query.parser';
import type { BulkWriter, FullRow, TableName } from './bulk-writer';
import { isoTime } from './iso-time';
import { longTail } from './long-tail';
import { Random } from './random';
import { seedHtml } from './seed-html';
import { SEED_TAGS, TagSampler } from './seed-tags';
import { bio, commentText, link, noticeText, position, postDescription, postTitle, TAGS, userName } from './seed-text';

export interface SeedSizes {
  users: number;
  posts: number;
  likes: number;
  comments: number;
  follows: number;
  notices: number;
}

/** Rows a benchmark or a test can aim at without searching for them. */
export interface SeedLandmarks {
  viralPostId: string | null;
  viralPostLikes: number;
  manyCommentsPostId: string | null;
  manyCommentsPostComments: number;
  heavyFollowerId: string | null;
  heavyFollowerUserName: string | null;
  heavyFollowerFollows: number;
  profileUserId: string | null;
  signInUserName: string | null;
  /** The for-you cursor whose page starts right after the `deepCursorAfter`-th newest post. */
  deepCursor: string | null;
  /** The tag on the most posts (its feed is the longest). */
  popularTag: string | null;
  /** The tags the sign-in user follows: a few, so their `feed=tags` has posts. */
  signInUserFollowedTags: string[];
}

export interface GenerateInput {
  seed: number;
  sizes: SeedSizes;
  /** Every timestamp falls in the two years before this instant. */
  now: Date;
  imageUrls: readonly string[];
  passwordHash: string;
  deepCursorAfter: number;
  progress: (line: string) => void;
}

export interface GenerateResult {
  sizes: SeedSizes;
  landmarks: SeedLandmarks;
  /** Time spent inserting each table, generation excluded. */
  insertMs: Record<TableName, number>;
}

const DAY_MS = 86_400_000;
const SPAN_MS = 730 * DAY_MS;
/** "Viral": this many likes, or every user when there are fewer. */
const VIRAL_LIKES = 10_000;
const POSTS_PER_VIRAL_POST = 20_000;
const MAX_VIRAL_POSTS = 5;
const MANY_COMMENTS = 200;
const HEAVY_FOLLOWS = 1_000;
const HEAVY_FOLLOWER_SHARE = 0.01;
const PROFILE_MIN_POSTS = 20;
/** Posts generated (with their likes and comments) before they are written: bounds memory. */
const POST_CHUNK = 2_000;
const ROW_CHUNK = 10_000;
const PROGRESS_EVERY_MS = 3_000;
/** Share of users who follow some tags (1 to TAG_FOLLOWS_MAX), and who mute one. */
const TAG_FOLLOWER_SHARE = 0.2;
const TAG_FOLLOWS_MAX = 5;
const TAG_MUTER_SHARE = 0.03;
/** The sign-in user (the bench's signed-in reader) follows exactly this many tags and mutes none. */
const SIGN_IN_USER_TAGS = 3;

/**
 * Ids in ObjectId format whose first 4 bytes are the row's own creation second, like ids the app
 * mints. The other 8 bytes are a run constant and a counter instead of process randomness, so the
 * same seed yields the same ids and no two rows of one run can share one.
 */
class SeedIds {
  private counter = 0;
  private readonly middle: string;

  constructor(random: Random) {
    this.middle = random.int(0, 0xffffff).toString(16).padStart(6, '0');
  }

  next(createdMs: number): string {
    this.counter += 1;
    return (
      Math.floor(createdMs / 1000)
        .toString(16)
        .padStart(8, '0') +
      this.middle +
      this.counter.toString(16).padStart(10, '0')
    );
  }
}

/** Everything the phases share: the input, one random stream per concern, the ids, the clock, the writer. */
interface SeedRun {
  input: GenerateInput;
  streams: Record<'users' | 'shape' | 'posts' | 'likes' | 'comments' | 'follows' | 'notices' | 'tags', Random>;
  ids: SeedIds;
  /** `input.now` in ms. */
  now: number;
  /** Users join between these instants (ms); posts and notices span the last two years before `now`. */
  usersFrom: number;
  usersTo: number;
  userCount: number;
  postCount: number;
  /** Writes rows in chunks of ROW_CHUNK, timing each table's inserts. */
  write: <T extends TableName>(table: T, rows: FullRow<T>[]) => Promise<void>;
  /** A progress line at most every PROGRESS_EVERY_MS, or now when forced. */
  progress: (line: string, force?: boolean) => void;
  insertMs: Record<TableName, number>;
}

/** How many each user follows; the heavy follower is the landmark (-1 when there are no users). */
interface FollowPlan {
  followsByUser: Int32Array;
  heavyFollower: number;
}

/** How many likes each post gets, in generation order; likeOrder[0] is the most viral post. */
interface LikePlan {
  likesByPost: Int32Array;
  likeOrder: Uint32Array;
}

/** How many comments each post gets; when `forced`, post commentOrder[0] has exactly MANY_COMMENTS. */
interface CommentPlan {
  commentsByPost: Int32Array;
  commentOrder: Uint32Array;
  forced: boolean;
}

/**
 * Each post's tags as ranks into SEED_TAGS (postTagRanks[post × 4 + n], the first postTagCounts[post]),
 * each user's follows and mutes, and the counters they add up to (the tags table's columns).
 */
interface TagPlan {
  postTagCounts: Uint8Array;
  postTagRanks: Uint16Array;
  prefs: { user: number; rank: number; kind: 'follow' | 'mute' }[];
  postsByTag: Int32Array;
  followersByTag: Int32Array;
  signInUserRanks: number[];
}

interface WrittenUsers {
  userIds: string[];
  userCreated: Float64Array;
  heavyFollowerUserName: string | null;
}

interface WrittenPosts {
  likeRows: number;
  commentRows: number;
  postsByUser: Int32Array;
  deepCursor: string | null;
  viralPostId: string | null;
  viralPostLikes: number;
  manyCommentsPostId: string | null;
  manyCommentsPostComments: number;
}

/**
 * Builds the whole data set from the seed alone (the same seed and `now` give the same rows) and
 * streams it to the writer in chunks. Counters on posts are computed from the very rows written,
 * so they equal the rows exactly. Knows nothing of SQL dialects.
 *
 * First the shape (who follows how many, how many likes and comments each post gets), then the
 * rows table by table, parents first; then the landmarks. Each phase draws from its own random
 * streams, in this order, so the output depends on the order of the phases but not on how they
 * are written.
 */
export async function generateSeed(writer: BulkWriter, input: GenerateInput): Promise<GenerateResult> {
  const run = startRun(writer, input);
  const follows = planFollows(run);
  const likes = planLikes(run);
  const comments = planComments(run, likes);
  const tags = planTags(run, follows.heavyFollower);
  const users = await writeUsers(run, follows);
  const followRows = await writeFollows(run, follows, users);
  await writeTags(run, tags, users);
  const posts = await writePosts(run, likes, comments, tags, users);
  const noticeCount = await writeNotices(run, users);
  const profileUser = pickProfileUser(posts.postsByUser);
  return {
    sizes: {
      users: run.userCount,
      posts: run.postCount,
      likes: posts.likeRows,
      comments: posts.commentRows,
      follows: followRows,
      notices: noticeCount,
    },
    landmarks: {
      viralPostId: posts.viralPostId,
      viralPostLikes: Math.max(0, posts.viralPostLikes),
      manyCommentsPostId: posts.manyCommentsPostId,
      manyCommentsPostComments: Math.max(0, posts.manyCommentsPostComments),
      heavyFollowerId: follows.heavyFollower >= 0 ? users.userIds[follows.heavyFollower] : null,
      heavyFollowerUserName: users.heavyFollowerUserName,
      heavyFollowerFollows: follows.heavyFollower >= 0 ? follows.followsByUser[follows.heavyFollower] : 0,
      profileUserId: profileUser >= 0 ? users.userIds[profileUser] : null,
      signInUserName: users.heavyFollowerUserName,
      deepCursor: posts.deepCursor,
      popularTag: popularTag(tags.postsByTag),
      signInUserFollowedTags: tags.signInUserRanks.map((rank) => SEED_TAGS[rank]),
    },
    insertMs: run.insertMs,
  };
}

function startRun(writer: BulkWriter, input: GenerateInput): SeedRun {
  const root = new Random(input.seed);
  // Forked in this order whatever the phases do, so every stream stays what it was.
  const streams = {
    ids: root.fork(),
    users: root.fork(),
    shape: root.fork(),
    posts: root.fork(),
    likes: root.fork(),
    comments: root.fork(),
    follows: root.fork(),
    notices: root.fork(),
    // Last: the streams above are what they were before posts had tags.
    tags: root.fork(),
  };
  const now = input.now.getTime();
  const insertMs: Record<TableName, number> = {
    users: 0,
    follows: 0,
    posts: 0,
    post_revisions: 0,
    likes: 0,
    comments: 0,
    notices: 0,
    tags: 0,
    post_tags: 0,
    tag_prefs: 0,
  };
  const write = async <T extends TableName>(table: T, rows: FullRow<T>[]): Promise<void> => {
    for (let start = 0; start < rows.length; start += ROW_CHUNK) {
      const began = performance.now();
      await writer.insert(table, rows.slice(start, start + ROW_CHUNK));
      insertMs[table] += performance.now() - began;
    }
  };
  const started = performance.now();
  let lastProgress = started;
  const progress = (line: string, force = false): void => {
    const at = performance.now();
    if (!force && at - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = at;
    // RSS too: it should stay flat however many posts there are, the rows being streamed.
    const rssMb = Math.round(process.memoryUsage.rss() / 1_048_576);
    input.progress(`  ${line} (${((at - started) / 1000).toFixed(1)} s, RSS ${rssMb} MB)`);
  };
  const userCount = input.sizes.users;
  return {
    input,
    streams,
    ids: new SeedIds(streams.ids),
    now,
    usersFrom: now - SPAN_MS - 60 * DAY_MS,
    usersTo: now - DAY_MS,
    userCount,
    postCount: userCount > 0 ? input.sizes.posts : 0,
    write,
    progress,
    insertMs,
  };
}

/** Who follows how many: about 1% follow 1,000 others; the first of them is the landmark. */
function planFollows(run: SeedRun): FollowPlan {
  const { userCount } = run;
  const heavyTarget = Math.min(HEAVY_FOLLOWS, Math.max(0, userCount - 1));
  let followBudget = Math.min(run.input.sizes.follows, userCount * Math.max(0, userCount - 1));
  const followOrder = run.streams.shape.permutation(userCount);
  let heavyCount = heavyTarget > 0 && followBudget > 0 ? Math.max(1, Math.round(userCount * HEAVY_FOLLOWER_SHARE)) : 0;
  heavyCount = Math.min(heavyCount, Math.max(1, Math.floor(followBudget / Math.max(1, heavyTarget))));
  const followsByUser = new Int32Array(userCount);
  for (let rank = 0; rank < heavyCount; rank += 1) {
    const count = Math.min(heavyTarget, followBudget);
    followsByUser[followOrder[rank]] = count;
    followBudget -= count;
  }
  const regularUsers = userCount - heavyCount;
  const regularCap = Math.min(
    Math.max(0, userCount - 1),
    Math.max(Math.floor(heavyTarget / 2), Math.ceil(followBudget / Math.max(1, regularUsers))),
  );
  const regularFollows = longTail(followBudget, regularUsers, regularCap, 0.8);
  for (let rank = 0; rank < regularUsers; rank += 1) {
    followsByUser[followOrder[heavyCount + rank]] = regularFollows[rank];
  }
  const heavyFollower = heavyCount > 0 ? followOrder[0] : userCount > 0 ? 0 : -1;
  return { followsByUser, heavyFollower };
}

/** Likes per post: a handful of viral posts, then a power-law tail where most get few or none. */
function planLikes(run: SeedRun): LikePlan {
  const { userCount, postCount } = run;
  const likesByPost = new Int32Array(postCount);
  const likeOrder = run.streams.shape.permutation(postCount);
  let likeBudget = Math.min(run.input.sizes.likes, postCount * userCount);
  const viralLikes = Math.min(userCount, VIRAL_LIKES);
  const viralCount =
    postCount === 0
      ? 0
      : Math.min(postCount, Math.max(1, Math.min(MAX_VIRAL_POSTS, Math.round(postCount / POSTS_PER_VIRAL_POST))));
  for (let rank = 0; rank < viralCount; rank += 1) {
    const count = Math.min(viralLikes, likeBudget);
    likesByPost[likeOrder[rank]] = count;
    likeBudget -= count;
  }
  const likeTail = longTail(
    likeBudget,
    postCount - viralCount,
    Math.min(userCount, Math.max(viralLikes, Math.ceil(likeBudget / Math.max(1, postCount - viralCount)))),
    1,
  );
  for (let rank = 0; rank < likeTail.length; rank += 1) {
    likesByPost[likeOrder[viralCount + rank]] = likeTail[rank];
  }
  return { likesByPost, likeOrder };
}

/** Comments per post: one post with exactly 200 (not the viral one), a long tail for the rest. */
function planComments(run: SeedRun, likes: LikePlan): CommentPlan {
  const { userCount, postCount } = run;
  const commentsByPost = new Int32Array(postCount);
  const commentOrder = run.streams.shape.permutation(postCount);
  if (postCount > 1 && commentOrder[0] === likes.likeOrder[0]) {
    commentOrder[0] = commentOrder[1];
    commentOrder[1] = likes.likeOrder[0];
  }
  let commentBudget = userCount > 0 ? run.input.sizes.comments : 0;
  const forced = postCount > 0 && commentBudget >= MANY_COMMENTS;
  if (forced) {
    commentsByPost[commentOrder[0]] = MANY_COMMENTS;
    commentBudget -= MANY_COMMENTS;
  }
  const forcedCount = forced ? 1 : 0;
  const commentTail = longTail(
    commentBudget,
    postCount - forcedCount,
    Math.max(MANY_COMMENTS, Math.ceil(commentBudget / Math.max(1, postCount - forcedCount))),
    0.9,
  );
  for (let rank = 0; rank < commentTail.length; rank += 1) {
    commentsByPost[commentOrder[forcedCount + rank]] = commentTail[rank];
  }
  return { commentsByPost, commentOrder, forced };
}

/**
 * Tags, from their own stream: 0–4 per post drawn by Zipf's law over SEED_TAGS, a fifth of the
 * users following a few (popular ones most), a few muting one, the sign-in user following
 * SIGN_IN_USER_TAGS. Planned before any row is written so the tags table, a parent of post_tags
 * and tag_prefs, goes in first with its final counters.
 */
function planTags(run: SeedRun, signInUser: number): TagPlan {
  const { userCount, postCount } = run;
  const sampler = new TagSampler(run.streams.tags);
  const postTagCounts = new Uint8Array(postCount);
  const postTagRanks = new Uint16Array(postCount * 4);
  const postsByTag = new Int32Array(SEED_TAGS.length);
  const followersByTag = new Int32Array(SEED_TAGS.length);
  for (let post = 0; post < postCount; post += 1) {
    const ranks = sampler.distinct(sampler.postTagCount());
    postTagCounts[post] = ranks.length;
    ranks.forEach((rank, n) => {
      postTagRanks[post * 4 + n] = rank;
      postsByTag[rank] += 1;
    });
  }
  const random = run.streams.tags;
  const prefs: TagPlan['prefs'] = [];
  let signInUserRanks: number[] = [];
  for (let user = 0; user < userCount; user += 1) {
    const followed =
      user === signInUser
        ? sampler.distinct(SIGN_IN_USER_TAGS)
        : random.chance(TAG_FOLLOWER_SHARE)
          ? sampler.distinct(random.int(1, TAG_FOLLOWS_MAX))
          : [];
    if (user === signInUser) signInUserRanks = followed;
    for (const rank of followed) {
      prefs.push({ user, rank, kind: 'follow' });
      followersByTag[rank] += 1;
    }
    if (user !== signInUser && random.chance(TAG_MUTER_SHARE)) {
      const muted = random.int(0, SEED_TAGS.length - 1);
      if (!followed.includes(muted)) prefs.push({ user, rank: muted, kind: 'mute' });
    }
  }
  return { postTagCounts, postTagRanks, prefs, postsByTag, followersByTag, signInUserRanks };
}

/**
 * The tags table (every name some post carries or some user follows or mutes, as the app makes
 * them on first use, with counters equal to the rows planned) and tag_prefs.
 */
async function writeTags(run: SeedRun, plan: TagPlan, users: WrittenUsers): Promise<void> {
  const { now } = run;
  const random = run.streams.tags;
  const used = new Set(plan.prefs.map((pref) => pref.rank));
  const tagRows: FullRow<'tags'>[] = [];
  SEED_TAGS.forEach((name, rank) => {
    if (plan.postsByTag[rank] > 0 || used.has(rank)) {
      tagRows.push({ name, posts_count: plan.postsByTag[rank], followers_count: plan.followersByTag[rank] });
    }
  });
  await run.write('tags', tagRows);
  const prefRows = plan.prefs.map((pref): FullRow<'tag_prefs'> => ({
    user_id: users.userIds[pref.user],
    tag: SEED_TAGS[pref.rank],
    kind: pref.kind,
    created_at: isoTime(users.userCreated[pref.user] + (now - users.userCreated[pref.user]) * random.next()),
  }));
  await run.write('tag_prefs', prefRows);
  run.progress(`tags ${tagRows.length}, tag follows and mutes ${prefRows.length}`, true);
}

/** The most used tag's name; null when no post has a tag. */
function popularTag(postsByTag: Int32Array): string | null {
  let best = -1;
  postsByTag.forEach((count, rank) => {
    if (count > 0 && (best < 0 || count > postsByTag[best])) best = rank;
  });
  return best >= 0 ? SEED_TAGS[best] : null;
}

/** Users, oldest first; ids ascend with creation, so every index below stays append-ordered. */
async function writeUsers(run: SeedRun, follows: FollowPlan): Promise<WrittenUsers> {
  const { input, userCount, usersFrom, usersTo } = run;
  const random = run.streams.users;
  const userIds: string[] = new Array<string>(userCount);
  const userCreated = new Float64Array(userCount);
  let heavyFollowerUserName: string | null = null;
  let rows: FullRow<'users'>[] = [];
  for (let index = 0; index < userCount; index += 1) {
    const created = Math.floor(usersFrom + ((usersTo - usersFrom) * (index + random.next())) / userCount);
    const id = run.ids.next(created);
    const name = userName(random, index);
    const email = `${name.toLowerCase()}@${random.pick(['example.com', 'example.org', 'example.net'])}`;
    userIds[index] = id;
    userCreated[index] = created;
    if (index === follows.heavyFollower) heavyFollowerUserName = name;
    rows.push({
      id,
      user_name: name,
      email,
      // emailKey() of users.repository.ts: these addresses are lower-case ASCII already.
      email_key: email,
      password_hash: input.passwordHash,
      pic: input.imageUrls.length > 0 && random.chance(0.2) ? random.pick(input.imageUrls) : DEFAULT_PROFILE_PIC,
      position: random.chance(0.6) ? position(random) : '',
      bio: random.chance(0.4) ? bio(random) : '',
      theme: random.chance(0.25) ? 'dark' : DEFAULT_THEME,
      role: 'user',
      created_at: isoTime(created),
      updated_at: isoTime(created),
      token_version: 0,
      // Moderation's columns (decision 047): left to their defaults (not in COLUMNS).
      suspended_until: null,
    });
    if (rows.length >= ROW_CHUNK) {
      await run.write('users', rows);
      rows = [];
    }
  }
  await run.write('users', rows);
  run.progress(`users ${userCount}`, true);
  return { userIds, userCreated, heavyFollowerUserName };
}

/** Follows, follower by follower; popular accounts collect most of them. Answers how many were written. */
async function writeFollows(run: SeedRun, follows: FollowPlan, users: WrittenUsers): Promise<number> {
  const { userCount, now } = run;
  const { userIds, userCreated } = users;
  const random = run.streams.follows;
  const fame = random.permutation(userCount);
  const famePosition = new Uint32Array(userCount);
  for (let rank = 0; rank < userCount; rank += 1) famePosition[fame[rank]] = rank;
  let followRows = 0;
  let rows: FullRow<'follows'>[] = [];
  for (let follower = 0; follower < userCount; follower += 1) {
    const count = follows.followsByUser[follower];
    if (count === 0) continue;
    const followees = random
      .distinct(count, userCount, 2, famePosition[follower])
      .map((rank) => fame[rank])
      .sort((a, b) => a - b);
    for (const followee of followees) {
      const from = Math.max(userCreated[follower], userCreated[followee]);
      rows.push({
        follower_id: userIds[follower],
        followee_id: userIds[followee],
        created_at: isoTime(from + (now - from) * random.next()),
      });
    }
    followRows += followees.length;
    if (rows.length >= ROW_CHUNK) {
      await run.write('follows', rows);
      rows = [];
      run.progress(`follows ${followRows}`);
    }
  }
  await run.write('follows', rows);
  run.progress(`follows ${followRows}`, true);
  return followRows;
}

/** Posts, oldest first, each followed by its likes and comments, POST_CHUNK posts at a time. */
async function writePosts(
  run: SeedRun,
  likePlan: LikePlan,
  commentPlan: CommentPlan,
  tagPlan: TagPlan,
  users: WrittenUsers,
): Promise<WrittenPosts> {
  const { input, userCount, postCount, now, usersFrom, usersTo } = run;
  const { userIds } = users;
  const { likesByPost } = likePlan;
  const { commentsByPost, commentOrder, forced } = commentPlan;
  const written: WrittenPosts = {
    likeRows: 0,
    commentRows: 0,
    postsByUser: new Int32Array(userCount),
    deepCursor: null,
    viralPostId: null,
    viralPostLikes: -1,
    manyCommentsPostId: null,
    manyCommentsPostComments: -1,
  };
  const { postsByUser } = written;
  const deepIndex = postCount > input.deepCursorAfter ? postCount - input.deepCursorAfter : -1;
  const random = run.streams.posts;
  const likes = run.streams.likes;
  const comments = run.streams.comments;
  const likerOrder = likes.permutation(userCount);
  const commenterOrder = comments.permutation(userCount);
  const postsFrom = now - SPAN_MS;
  let previous = -Infinity;
  for (let chunkStart = 0; chunkStart < postCount; chunkStart += POST_CHUNK) {
    const postRows: FullRow<'posts'>[] = [];
    const likeRowsChunk: FullRow<'likes'>[] = [];
    const commentRowsChunk: FullRow<'comments'>[] = [];
    const postTagRows: FullRow<'post_tags'>[] = [];
    for (let index = chunkStart; index < Math.min(postCount, chunkStart + POST_CHUNK); index += 1) {
      // Strictly increasing times make (created_at, id) order the same as generation order.
      const created = Math.max(previous + 1, Math.floor(postsFrom + (SPAN_MS * (index + random.next())) / postCount));
      previous = created;
      const id = run.ids.next(created);
      // Authors must have joined: early members write the most, as on most communities.
      const joined = Math.ceil((userCount * (created - usersFrom)) / (usersTo - usersFrom));
      const eligible = Math.min(userCount, Math.max(1, joined));
      const author = Math.floor(eligible * Math.pow(random.next(), 2));
      postsByUser[author] = postsByUser[author] + 1;

      const likeCount = likesByPost[index];
      const likers = likes.distinct(likeCount, userCount, 1.5).map((rank) => likerOrder[rank]);
      likers.sort((a, b) => a - b);
      for (const liker of likers) {
        likeRowsChunk.push({
          post_id: id,
          user_id: userIds[liker],
          created_at: isoTime(created + (now - created) * Math.pow(likes.next(), 3)),
        });
      }

      const commentCount = commentsByPost[index];
      const commenters = new Set<number>();
      for (let n = 0; n < commentCount; n += 1) {
        const commenter = commenterOrder[Math.floor(userCount * Math.pow(comments.next(), 1.5))];
        commenters.add(commenter);
        const at = created + (now - created) * Math.pow(comments.next(), 2);
        const text = commentText(comments);
        commentRowsChunk.push({
          id: run.ids.next(at),
          post_id: id,
          author_id: userIds[commenter],
          text,
          text_html: await seedHtml(text, 'comment'),
          render_version: RENDERER_VERSION,
          created_at: isoTime(at),
          // Top-level, unedited, live: left to the columns' defaults (not in COLUMNS.comments).
          parent_id: null,
          edited_at: null,
          deleted: 0,
          removed_at: null,
          removed_by: null,
        });
      }

      const link1 = random.chance(0.3) ? link(random) : '';
      const title = postTitle(random);
      const post: FullRow<'posts'> = {
        id,
        author_id: userIds[author],
        title,
        title_key: titleKey(title),
        description: postDescription(random),
        photo: input.imageUrls.length > 0 && random.chance(1 / 3) ? random.pick(input.imageUrls) : '',
        category: random.chance(0.2) ? '' : random.pick(CATEGORIES),
        link1,
        link2: link1 && random.chance(0.3) ? link(random) : '',
        likes_count: likers.length,
        comments_count: commentCount,
        commenters_count: commenters.size,
        hot_score: hotScore({
          likes_count: likers.length,
          commenters_count: commenters.size,
          created_at: isoTime(created),
        }),
        created_at: isoTime(created),
        updated_at: isoTime(random.chance(0.1) ? created + (now - created) * random.next() : created),
        // No seeded post has an edit history, so none says "edited" (see 027-post-revisions.md).
        edited_at: null,
        // Seeded posts have no article; their summaries are rendered as the app would on save.
        body: '',
        desc_html: null,
        body_html: '',
        render_version: RENDERER_VERSION,
        removed_at: null,
        removed_by: null,
      };
      post.desc_html = await seedHtml(post.description, 'comment');
      postRows.push(post);
      for (let position = 0; position < tagPlan.postTagCounts[index]; position += 1) {
        postTagRows.push({
          post_id: id,
          tag: SEED_TAGS[tagPlan.postTagRanks[index * 4 + position]],
          position,
          created_at: post.created_at,
        });
      }
      if (index === deepIndex) written.deepCursor = encodeCursor({ createdAt: isoTime(created), id });
      if (likers.length > written.viralPostLikes) {
        written.viralPostId = id;
        written.viralPostLikes = likers.length;
      }
      const isManyCommentsPost = forced ? index === commentOrder[0] : commentCount > written.manyCommentsPostComments;
      if (isManyCommentsPost) {
        written.manyCommentsPostId = id;
        written.manyCommentsPostComments = commentCount;
      }
    }
    // Parents first: PostgreSQL checks each like's and comment's post as the row goes in.
    await run.write('posts', postRows);
    await run.write('likes', likeRowsChunk);
    await run.write('comments', commentRowsChunk);
    await run.write('post_tags', postTagRows);
    written.likeRows += likeRowsChunk.length;
    written.commentRows += commentRowsChunk.length;
    run.progress(
      `posts ${chunkStart + postRows.length}/${postCount}, likes ${written.likeRows}, comments ${written.commentRows}`,
    );
  }
  run.progress(`posts ${postCount}, likes ${written.likeRows}, comments ${written.commentRows}`, true);
  return written;
}

/** Notices, oldest first, with 0–3 links and a few tags. Answers how many were written. */
async function writeNotices(run: SeedRun, users: WrittenUsers): Promise<number> {
  const { userCount, now } = run;
  const noticeCount = userCount > 0 ? run.input.sizes.notices : 0;
  const random = run.streams.notices;
  const noticesFrom = now - SPAN_MS;
  let rows: FullRow<'notices'>[] = [];
  let previous = -Infinity;
  for (let index = 0; index < noticeCount; index += 1) {
    const created = Math.max(previous + 1, Math.floor(noticesFrom + (SPAN_MS * (index + random.next())) / noticeCount));
    previous = created;
    const links: string[] = [];
    for (let n = random.int(0, 3); n > 0; n -= 1) links.push(link(random));
    const tags = [...new Set(Array.from({ length: random.int(0, 3) }, () => random.pick(TAGS)))];
    const notice: FullRow<'notices'> = {
      id: run.ids.next(created),
      author_id: users.userIds[Math.floor(userCount * Math.pow(random.next(), 2))],
      description: noticeText(random),
      links: JSON.stringify(links),
      tags: JSON.stringify(tags),
      created_at: isoTime(created),
      desc_html: null,
      render_version: RENDERER_VERSION,
      removed_at: null,
      removed_by: null,
    };
    notice.desc_html = await seedHtml(notice.description, 'notice');
    rows.push(notice);
    if (rows.length >= ROW_CHUNK) {
      await run.write('notices', rows);
      rows = [];
    }
  }
  await run.write('notices', rows);
  run.progress(`notices ${noticeCount}`, true);
  return noticeCount;
}

/**
 * The profile landmark: a typical active member rather than the single most prolific one — the
 * user with the fewest posts ≥ PROFILE_MIN_POSTS, else the most prolific. -1 when there are no users.
 */
function pickProfileUser(postsByUser: Int32Array): number {
  let profileUser = -1;
  for (let user = 0; user < postsByUser.length; user += 1) {
    if (profileUser < 0 || postsByUser[user] > postsByUser[profileUser]) profileUser = user;
  }
  const profilePosts = profileUser >= 0 ? postsByUser[profileUser] : 0;
  if (profilePosts >= PROFILE_MIN_POSTS) {
    for (let user = 0; user < postsByUser.length; user += 1) {
      const count = postsByUser[user];
      if (count >= PROFILE_MIN_POSTS && count < postsByUser[profileUser]) profileUser = user;
    }
  }
  return profileUser;
}
