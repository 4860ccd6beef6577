import { CATEGORIES, DEFAULT_THEME } from '@techit/contract/enums';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import { encodeCursor } from '../common/cursor';
import type { BulkWriter, FullRow, TableName } from './bulk-writer';
import { isoTime } from './iso-time';
import { longTail } from './long-tail';
import { Random } from './random';
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

/**
 * Builds the whole data set from the seed alone (the same seed and `now` give the same rows) and
 * streams it to the writer in chunks. Counters on posts are computed from the very rows written,
 * so they equal the rows exactly. Knows nothing of SQL dialects.
 */
export async function generateSeed(writer: BulkWriter, input: GenerateInput): Promise<GenerateResult> {
  const root = new Random(input.seed);
  const streams = {
    ids: root.fork(),
    users: root.fork(),
    shape: root.fork(),
    posts: root.fork(),
    likes: root.fork(),
    comments: root.fork(),
    follows: root.fork(),
    notices: root.fork(),
  };
  const ids = new SeedIds(streams.ids);
  const now = input.now.getTime();
  const iso = isoTime;
  const insertMs: Record<TableName, number> = { users: 0, follows: 0, posts: 0, likes: 0, comments: 0, notices: 0 };
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
  const postCount = userCount > 0 ? input.sizes.posts : 0;
  const shape = streams.shape;

  // --- who follows how many: about 1% follow 1,000 others; the first of them is the landmark.
  const heavyTarget = Math.min(HEAVY_FOLLOWS, Math.max(0, userCount - 1));
  let followBudget = Math.min(input.sizes.follows, userCount * Math.max(0, userCount - 1));
  const followOrder = shape.permutation(userCount);
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

  // --- likes per post: a handful of viral posts, then a power-law tail where most get few or none.
  const likesByPost = new Int32Array(postCount);
  const likeOrder = shape.permutation(postCount);
  let likeBudget = Math.min(input.sizes.likes, postCount * userCount);
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

  // --- comments per post: one post with exactly 200 (not the viral one), a long tail for the rest.
  const commentsByPost = new Int32Array(postCount);
  const commentOrder = shape.permutation(postCount);
  if (postCount > 1 && commentOrder[0] === likeOrder[0]) {
    commentOrder[0] = commentOrder[1];
    commentOrder[1] = likeOrder[0];
  }
  let commentBudget = userCount > 0 ? input.sizes.comments : 0;
  const forced = postCount > 0 && commentBudget >= MANY_COMMENTS ? 1 : 0;
  if (forced) {
    commentsByPost[commentOrder[0]] = MANY_COMMENTS;
    commentBudget -= MANY_COMMENTS;
  }
  const commentTail = longTail(
    commentBudget,
    postCount - forced,
    Math.max(MANY_COMMENTS, Math.ceil(commentBudget / Math.max(1, postCount - forced))),
    0.9,
  );
  for (let rank = 0; rank < commentTail.length; rank += 1) {
    commentsByPost[commentOrder[forced + rank]] = commentTail[rank];
  }

  // --- users, oldest first; ids ascend with creation, so every index below stays append-ordered.
  const userIds: string[] = new Array<string>(userCount);
  const userCreated = new Float64Array(userCount);
  const usersFrom = now - SPAN_MS - 60 * DAY_MS;
  const usersTo = now - DAY_MS;
  let heavyFollowerUserName: string | null = null;
  {
    const random = streams.users;
    let rows: FullRow<'users'>[] = [];
    for (let index = 0; index < userCount; index += 1) {
      const created = Math.floor(usersFrom + ((usersTo - usersFrom) * (index + random.next())) / userCount);
      const id = ids.next(created);
      const name = userName(random, index);
      const email = `${name.toLowerCase()}@${random.pick(['example.com', 'example.org', 'example.net'])}`;
      userIds[index] = id;
      userCreated[index] = created;
      if (index === heavyFollower) heavyFollowerUserName = name;
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
        created_at: iso(created),
        updated_at: iso(created),
        token_version: 0,
      });
      if (rows.length >= ROW_CHUNK) {
        await write('users', rows);
        rows = [];
      }
    }
    await write('users', rows);
    progress(`users ${userCount}`, true);
  }

  // --- follows, follower by follower; popular accounts collect most of them.
  let followRows = 0;
  {
    const random = streams.follows;
    const fame = random.permutation(userCount);
    const famePosition = new Uint32Array(userCount);
    for (let rank = 0; rank < userCount; rank += 1) famePosition[fame[rank]] = rank;
    let rows: FullRow<'follows'>[] = [];
    for (let follower = 0; follower < userCount; follower += 1) {
      const count = followsByUser[follower];
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
          created_at: iso(from + (now - from) * random.next()),
        });
      }
      followRows += followees.length;
      if (rows.length >= ROW_CHUNK) {
        await write('follows', rows);
        rows = [];
        progress(`follows ${followRows}`);
      }
    }
    await write('follows', rows);
    progress(`follows ${followRows}`, true);
  }

  // --- posts, oldest first, each followed by its likes and comments.
  let likeRows = 0;
  let commentRows = 0;
  let deepCursor: string | null = null;
  const deepIndex = postCount > input.deepCursorAfter ? postCount - input.deepCursorAfter : -1;
  const postsByUser = new Int32Array(userCount);
  let viralPostId: string | null = null;
  let viralPostLikes = -1;
  let manyCommentsPostId: string | null = null;
  let manyCommentsPostComments = -1;
  {
    const random = streams.posts;
    const likes = streams.likes;
    const comments = streams.comments;
    const likerOrder = likes.permutation(userCount);
    const commenterOrder = comments.permutation(userCount);
    const postsFrom = now - SPAN_MS;
    let previous = -Infinity;
    for (let chunkStart = 0; chunkStart < postCount; chunkStart += POST_CHUNK) {
      const postRows: FullRow<'posts'>[] = [];
      const likeRowsChunk: FullRow<'likes'>[] = [];
      const commentRowsChunk: FullRow<'comments'>[] = [];
      for (let index = chunkStart; index < Math.min(postCount, chunkStart + POST_CHUNK); index += 1) {
        // Strictly increasing times make (created_at, id) order the same as generation order.
        const created = Math.max(previous + 1, Math.floor(postsFrom + (SPAN_MS * (index + random.next())) / postCount));
        previous = created;
        const id = ids.next(created);
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
            created_at: iso(created + (now - created) * Math.pow(likes.next(), 3)),
          });
        }

        const commentCount = commentsByPost[index];
        const commenters = new Set<number>();
        for (let n = 0; n < commentCount; n += 1) {
          const commenter = commenterOrder[Math.floor(userCount * Math.pow(comments.next(), 1.5))];
          commenters.add(commenter);
          const at = created + (now - created) * Math.pow(comments.next(), 2);
          commentRowsChunk.push({
            id: ids.next(at),
            post_id: id,
            author_id: userIds[commenter],
            text: commentText(comments),
            created_at: iso(at),
          });
        }

        const link1 = random.chance(0.3) ? link(random) : '';
        postRows.push({
          id,
          author_id: userIds[author],
          title: postTitle(random),
          description: postDescription(random),
          photo: input.imageUrls.length > 0 && random.chance(1 / 3) ? random.pick(input.imageUrls) : '',
          category: random.chance(0.2) ? '' : random.pick(CATEGORIES),
          link1,
          link2: link1 && random.chance(0.3) ? link(random) : '',
          likes_count: likers.length,
          comments_count: commentCount,
          commenters_count: commenters.size,
          created_at: iso(created),
          updated_at: iso(random.chance(0.1) ? created + (now - created) * random.next() : created),
        });
        if (index === deepIndex) deepCursor = encodeCursor({ createdAt: iso(created), id });
        if (likers.length > viralPostLikes) {
          viralPostId = id;
          viralPostLikes = likers.length;
        }
        const isManyCommentsPost = forced ? index === commentOrder[0] : commentCount > manyCommentsPostComments;
        if (isManyCommentsPost) {
          manyCommentsPostId = id;
          manyCommentsPostComments = commentCount;
        }
      }
      // Parents first: PostgreSQL checks each like's and comment's post as the row goes in.
      await write('posts', postRows);
      await write('likes', likeRowsChunk);
      await write('comments', commentRowsChunk);
      likeRows += likeRowsChunk.length;
      commentRows += commentRowsChunk.length;
      progress(`posts ${chunkStart + postRows.length}/${postCount}, likes ${likeRows}, comments ${commentRows}`);
    }
    progress(`posts ${postCount}, likes ${likeRows}, comments ${commentRows}`, true);
  }

  // --- notices, oldest first, with 0–3 links and a few tags.
  const noticeCount = userCount > 0 ? input.sizes.notices : 0;
  {
    const random = streams.notices;
    const noticesFrom = now - SPAN_MS;
    let rows: FullRow<'notices'>[] = [];
    let previous = -Infinity;
    for (let index = 0; index < noticeCount; index += 1) {
      const created = Math.max(
        previous + 1,
        Math.floor(noticesFrom + (SPAN_MS * (index + random.next())) / noticeCount),
      );
      previous = created;
      const links: string[] = [];
      for (let n = random.int(0, 3); n > 0; n -= 1) links.push(link(random));
      const tags = [...new Set(Array.from({ length: random.int(0, 3) }, () => random.pick(TAGS)))];
      rows.push({
        id: ids.next(created),
        author_id: userIds[Math.floor(userCount * Math.pow(random.next(), 2))],
        description: noticeText(random),
        links: JSON.stringify(links),
        tags: JSON.stringify(tags),
        created_at: iso(created),
      });
      if (rows.length >= ROW_CHUNK) {
        await write('notices', rows);
        rows = [];
      }
    }
    await write('notices', rows);
    progress(`notices ${noticeCount}`, true);
  }

  let profileUser = -1;
  for (let user = 0; user < userCount; user += 1) {
    if (profileUser < 0 || postsByUser[user] > postsByUser[profileUser]) profileUser = user;
  }
  const profilePosts = profileUser >= 0 ? postsByUser[profileUser] : 0;
  if (profilePosts >= PROFILE_MIN_POSTS) {
    // A typical active member rather than the single most prolific one: the fewest posts ≥ 20.
    for (let user = 0; user < userCount; user += 1) {
      const count = postsByUser[user];
      if (count >= PROFILE_MIN_POSTS && count < postsByUser[profileUser]) profileUser = user;
    }
  }

  return {
    sizes: {
      users: userCount,
      posts: postCount,
      likes: likeRows,
      comments: commentRows,
      follows: followRows,
      notices: noticeCount,
    },
    landmarks: {
      viralPostId,
      viralPostLikes: Math.max(0, viralPostLikes),
      manyCommentsPostId,
      manyCommentsPostComments: Math.max(0, manyCommentsPostComments),
      heavyFollowerId: heavyFollower >= 0 ? userIds[heavyFollower] : null,
      heavyFollowerUserName,
      heavyFollowerFollows: heavyFollower >= 0 ? followsByUser[heavyFollower] : 0,
      profileUserId: profileUser >= 0 ? userIds[profileUser] : null,
      signInUserName: heavyFollowerUserName,
      deepCursor,
    },
    insertMs,
  };
}
