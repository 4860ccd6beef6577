import type { SeedSizes } from '@techit/backend/seed/seed-generator';
import { field, list } from '@techit/testkit/api-client';
import { codePostProblem } from './code-post';
import type { SeedSummary } from './data-set';

/** A GET measured against the real server and against a limit server replaying its reply. */
export interface ReadScenario {
  kind: 'read';
  name: string;
  path: string;
  headers?: Record<string, string>;
  /**
   * Issue 21's signed-in reads: bearer tokens of many readers, one per request in turn
   * (load-runner.ts rotatingTokens), so a cache keyed by the reader would miss as it would in a
   * community. The reply of every token is checked before the load; the limit server replays the
   * first one's.
   */
  tokens?: string[];
  /** Why this scenario cannot run on this data set; null when it can. */
  skip: string | null;
  /** Checks the parsed reply is what the scenario means to measure; returns a problem or null. */
  check(reply: unknown): string | null;
  /** A short description of the reply's contents for the table notes (e.g. list lengths). */
  describe(reply: unknown): string;
  /**
   * Connections for this scenario instead of --connections: a latency target (what one reader
   * waits) is measured with requests one after another, so its p99 is the request's own time and
   * not the queue that 50 connections to one process build in front of it.
   */
  connections?: number;
}

/**
 * Search's targets are latencies (issue 17: p99 <= 50 ms, <= 150 ms for the worst case): one
 * connection, so a request never waits behind another one. The req/s column is then that
 * connection's rate, not the server's capacity.
 */
const LATENCY_CONNECTIONS = 1;

/** The name of every scenario, in the order they run (reads, then writes, then sign-in). */
export const SCENARIO_NAMES = [
  'for-you',
  'for-you-auth',
  'following-auth',
  'tag-feed-auth',
  'hot-auth',
  'post-auth',
  'profile-auth',
  'deep-cursor',
  'deep-page',
  'following',
  'hot',
  'hot-deep-cursor',
  'tags-prefix-1',
  'tags-prefix-2',
  'tag-feed',
  'tag-deep-cursor',
  'tags-feed',
  'top-posts',
  'post-viral',
  'post-200-comments',
  'comments',
  'profile',
  'userposts',
  'notices',
  'notifications',
  'notifications-unread',
  'users-suggest',
  'search-words',
  'search-common',
  'search-typo',
  'search-users-prefix',
  'search-prefix',
  'search-phrase',
  'search-tag',
  'search-words-tag',
  'search-tags-prefix',
  'for-you-during-writes',
  'like-toggle',
  'write-mix',
  'signin',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export const WRITE_SCENARIOS: readonly ScenarioName[] = ['like-toggle', 'write-mix'];

/**
 * Issue 21: visitors' for-you page 1 while writes arrive at a steady rate (run-bench.ts starts a
 * BackgroundWriter for the whole measured window, every round of both servers).
 */
export const DURING_WRITES_SCENARIO: ScenarioName = 'for-you-during-writes';
export const DURING_WRITES_LIKES_PER_SECOND = 100;
export const DURING_WRITES_COMMENTS_PER_SECOND = 10;

/** Issue 21's signed-in reads are spread over this many readers (at least 20 distinct tokens). */
export const AUTH_READERS = 50;
export const MIN_AUTH_READERS = 20;

/** The scenarios that need signed-in readers of each kind. */
export const READER_SCENARIOS: readonly ScenarioName[] = [
  'for-you-auth',
  'tag-feed-auth',
  'hot-auth',
  'post-auth',
  'profile-auth',
];
export const HEAVY_FOLLOWER_SCENARIOS: readonly ScenarioName[] = ['following-auth'];
export const TAG_FOLLOWER_SCENARIOS: readonly ScenarioName[] = ['tags-feed'];

/** The signed-in readers the reads use: tokens of each kind (see ReadScenario.tokens). */
export interface ScenarioReaders {
  /** Seeded members (authors of the newest posts and the landmarks). */
  readers: string[];
  /** Members following 1,000 others (the seed makes about 1 % of the users such). */
  heavyFollowers: string[];
  /** Members following at least one tag. */
  tagFollowers: string[];
  /** The one reader holding 10,000 notifications (issue 18's latency scenarios). */
  notificationsReader: string | null;
}

/**
 * Every post read asks for the compact form, as the web app does (frontend post-paths.ts): the
 * targets are set for it. The full form's cost is reported beside it in docs/performance.md.
 */
const VIEW = 'view=compact';

/** Issue 18: the signed-in reader holds this many notifications (bench/src/notifications-data.ts). */
export const NOTIFICATIONS_HELD = 10_000;
/** The scenarios that need the reader's notifications written first. */
export const NOTIFICATION_SCENARIOS: readonly ScenarioName[] = ['notifications', 'notifications-unread'];

/** The "deep page": after 10,000 posts, four per page. */
const DEEP_PAGE = 2500;
const FEED_PAGE_SIZE = 4;

/** The hot feed's page DEEP_PAGE by number: its nextCursor is where hot-deep-cursor reads from. */
export const HOT_DEEP_PAGE_PATH = `/api/posts?feed=hot&page=${DEEP_PAGE}&limit=${FEED_PAGE_SIZE}&${VIEW}`;

/** The tag feed of the seed's most used tag (on about a quarter of the posts), page 1. */
export function tagFeedPath(summary: SeedSummary): string {
  return `/api/posts?feed=tag&tag=${encodeURIComponent(summary.landmarks.popularTag ?? '')}&limit=${FEED_PAGE_SIZE}&${VIEW}`;
}

/** That feed's page DEEP_PAGE by number: its nextCursor is where tag-deep-cursor reads from. */
export function tagDeepPagePath(summary: SeedSummary): string {
  return `${tagFeedPath(summary)}&page=${DEEP_PAGE}`;
}

/** Cursors read from the server before the scenarios run (null: the data set is too small for one). */
export interface DeepCursors {
  hot: string | null;
  tag: string | null;
}

export function readScenarios(
  summary: SeedSummary,
  sizes: SeedSizes,
  auth: ScenarioReaders,
  deepCursors: DeepCursors,
  /** The post given a Markdown article with code (code-post.ts), or why there is none. */
  codePost: { id: string } | string,
): ReadScenario[] {
  const { landmarks } = summary;
  const hotDeepCursor = deepCursors.hot;
  const noPopularTag = landmarks.popularTag ? null : 'no post of the data set has a tag';
  const readerToken = auth.notificationsReader;
  const readerHeaders = readerToken ? { authorization: `Bearer ${readerToken}` } : undefined;
  const signedIn = (scenario: ReadScenario, tokens: string[], none: string): ReadScenario => ({
    ...scenario,
    skip: scenario.skip ?? (tokens.length > 0 ? null : none),
    tokens,
  });
  const noReader = 'no signed-in reader';
  const mentionPrefix = landmarks.signInUserName.slice(0, 2).toLowerCase();
  const feed = `/api/posts?feed=for-you&page=1&limit=${FEED_PAGE_SIZE}&${VIEW}`;
  const tooFewPosts =
    sizes.posts <= DEEP_PAGE * FEED_PAGE_SIZE ? `needs more than ${DEEP_PAGE * FEED_PAGE_SIZE} posts` : null;
  return [
    postList('for-you', feed, null),
    // Issue 21: the signed-in reads, each spread over many readers (one token per request in turn).
    signedIn(postList('for-you-auth', feed, null), auth.readers, noReader),
    signedIn(
      postList('following-auth', `/api/posts?feed=following&page=1&limit=${FEED_PAGE_SIZE}&${VIEW}`, null),
      auth.heavyFollowers,
      'no signed-in user following 1,000 others',
    ),
    signedIn(postList('tag-feed-auth', tagFeedPath(summary), noPopularTag), auth.readers, noReader),
    signedIn(postList('hot-auth', `/api/posts?feed=hot&limit=${FEED_PAGE_SIZE}&${VIEW}`, null), auth.readers, noReader),
    signedIn(
      {
        kind: 'read',
        name: 'post-auth',
        path: typeof codePost === 'string' ? '/api/posts/none' : `/api/posts/${codePost.id}?${VIEW}`,
        skip: typeof codePost === 'string' ? codePost : null,
        check: (reply) => (typeof codePost === 'string' ? codePost : codePostProblem(reply, codePost.id)),
        describe: (reply) =>
          `${describePosts([field(reply, 'post')])}; body ${String(field(field(reply, 'post'), 'body')).length} chars with code`,
      },
      auth.readers,
      noReader,
    ),
    signedIn(profile('profile-auth', landmarks.profileUserId), auth.readers, noReader),
    postList(
      'deep-cursor',
      `/api/posts?feed=for-you&limit=${FEED_PAGE_SIZE}&cursor=${encodeURIComponent(landmarks.deepCursor ?? '')}&${VIEW}`,
      landmarks.deepCursor ? null : 'the data set has no deep cursor',
    ),
    postList('deep-page', `/api/posts?feed=for-you&page=${DEEP_PAGE}&limit=${FEED_PAGE_SIZE}&${VIEW}`, tooFewPosts),
    postList(
      'following',
      `/api/posts?feed=following&userId=${landmarks.heavyFollowerId}&page=1&limit=${FEED_PAGE_SIZE}&${VIEW}`,
      null,
    ),
    // The hot feed (docs/decisions/033-hot-feed.md): page 1, and the page after 10,000 posts by cursor.
    postList('hot', `/api/posts?feed=hot&limit=${FEED_PAGE_SIZE}&${VIEW}`, null),
    postList(
      'hot-deep-cursor',
      `/api/posts?feed=hot&limit=${FEED_PAGE_SIZE}&cursor=${encodeURIComponent(hotDeepCursor ?? '')}&${VIEW}`,
      hotDeepCursor ? null : (tooFewPosts ?? 'the hot feed gave no deep cursor'),
    ),
    // Tags (docs/decisions/032-tags.md): autocomplete, p99 <= 20 ms (issue 17), for a one- and a
    // two-letter prefix (many names: the most-used first); the popular tag's feed, page 1 and
    // after 10,000 of its posts by cursor; the signed-in reader's followed tags (three, by the seed).
    tagSuggestions('tags-prefix-1', 's'),
    tagSuggestions('tags-prefix-2', 'ja'),
    postList('tag-feed', tagFeedPath(summary), noPopularTag),
    postList(
      'tag-deep-cursor',
      `/api/posts?feed=tag&tag=${encodeURIComponent(landmarks.popularTag ?? '')}&limit=${FEED_PAGE_SIZE}&cursor=${encodeURIComponent(deepCursors.tag ?? '')}&${VIEW}`,
      deepCursors.tag ? null : (noPopularTag ?? 'the tag feed gave no deep cursor'),
    ),
    // Spread over readers who follow tags, like for-you-auth over its readers: the target compares the two.
    signedIn(
      postList('tags-feed', `/api/posts?feed=tags&limit=${FEED_PAGE_SIZE}&${VIEW}`, null),
      auth.tagFollowers,
      'no signed-in reader follows a tag',
    ),
    {
      kind: 'read',
      name: 'top-posts',
      path: '/api/top-posts',
      skip: null,
      check: (reply) => (list(reply, 'posts').length > 0 ? null : 'no top posts'),
      describe: (reply) => `${list(reply, 'posts').length} posts`,
    },
    singlePost('post-viral', landmarks.viralPostId),
    singlePost('post-200-comments', landmarks.manyCommentsPostId),
    {
      kind: 'read',
      name: 'comments',
      path: `/api/posts/${landmarks.manyCommentsPostId}/comments`,
      skip: null,
      check: (reply) => (list(reply, 'comments').length > 0 ? null : 'no comments'),
      describe: (reply) => `${list(reply, 'comments').length} comments`,
    },
    profile('profile', landmarks.profileUserId),
    {
      kind: 'read',
      name: 'userposts',
      path: `/api/userposts/${landmarks.profileUserId}?${VIEW}`,
      skip: null,
      check: (reply) => (list(reply, 'userPosts').length > 0 ? null : 'the profile user has no posts'),
      describe: (reply) => describePosts(list(reply, 'userPosts')),
    },
    {
      kind: 'read',
      name: 'notices',
      path: '/api/allnotices',
      skip: sizes.notices > 0 ? null : 'no notices in the data set',
      check: (reply) => (list(reply, 'notices').length > 0 ? null : 'no notices'),
      describe: (reply) => `${list(reply, 'notices').length} notices`,
    },
    // Issue 18: the notifications page and the bell's count for a reader holding 10,000
    // notifications, p99 <= 50 ms: latencies, so one connection.
    {
      kind: 'read',
      name: 'notifications',
      path: '/api/notifications?limit=20',
      headers: readerHeaders,
      skip: readerToken ? null : 'no signed-in reader',
      check: (reply) => (list(reply, 'notifications').length > 0 ? null : 'the reader has no notifications'),
      describe: (reply) =>
        `${list(reply, 'notifications').length} of ${NOTIFICATIONS_HELD.toLocaleString('en')} notifications, unread ${String(field(reply, 'unreadCount'))}`,
      connections: LATENCY_CONNECTIONS,
    },
    {
      kind: 'read',
      name: 'notifications-unread',
      path: '/api/notifications/unread-count',
      headers: readerHeaders,
      skip: readerToken ? null : 'no signed-in reader',
      check: (reply) => (typeof field(reply, 'unreadCount') === 'number' ? null : 'no unreadCount'),
      describe: (reply) => `unread ${String(field(reply, 'unreadCount'))}`,
      connections: LATENCY_CONNECTIONS,
    },
    // Issue 18: the editors' @ suggestions (GET /api/users/suggest), p99 <= 20 ms, for the first two
    // letters of a seed name: a common first name, so the prefix matches many users.
    {
      kind: 'read',
      name: 'users-suggest',
      path: `/api/users/suggest?prefix=${encodeURIComponent(mentionPrefix)}`,
      skip: mentionPrefix.length === 2 ? null : 'no signed-in user name to take a prefix from',
      check: (reply) => (list(reply, 'users').length > 0 ? null : `no user name starts with "${mentionPrefix}"`),
      describe: (reply) => `${list(reply, 'users').length} users for "@${mentionPrefix}"`,
      connections: LATENCY_CONNECTIONS,
    },
    // Issue 17's search targets (decision 034): p99 <= 50 ms for one to three ordinary words,
    // <= 150 ms for the worst case. The seed's text draws from ~200 words, so every word is in
    // about a fifth of the posts: "ordinary" here is two words together, "common" one alone.
    search('search-words', '/api/search?q=rust%20async'),
    search('search-common', '/api/search?q=kubernetes'),
    search('search-typo', '/api/search?q=kubernets'),
    search('search-users-prefix', '/api/search?type=users&q=ka'),
    // A wanted word of 1–2 letters is a prefix (decision 034): `ku` is kubernetes, kudos, ….
    search('search-prefix', '/api/search?q=ku'),
    search('search-phrase', '/api/search?q=%22async%20rust%22'),
    // Tags need a seed that tags posts ("rust" and "javascript" are among its most used).
    search('search-tag', '/api/search?q=tag%3Arust', 'no rust posts: does the seed tag posts?'),
    search('search-words-tag', '/api/search?q=kubernetes%20tag%3Ajavascript', 'no results: does the seed tag posts?'),
    search('search-tags-prefix', '/api/search?type=tags&q=ja', 'no tags: does the seed tag posts?'),
  ];
}

/** Issue 21: visitors' for-you page 1 while likes and comments arrive (run by run-bench.ts in the writes phase). */
export function forYouDuringWrites(): ReadScenario {
  return postList(DURING_WRITES_SCENARIO, `/api/posts?feed=for-you&page=1&limit=${FEED_PAGE_SIZE}&${VIEW}`, null);
}

function profile(name: string, userId: string): ReadScenario {
  return {
    kind: 'read',
    name,
    path: `/api/user/${userId}`,
    skip: userId ? null : 'the data set names no profile user',
    check: (reply) => (field(field(reply, 'user'), '_id') === userId ? null : 'not the user asked for'),
    describe: (reply) => {
      const user = field(reply, 'user');
      return `${list(user, 'followers').length} followers, ${list(user, 'following').length} following ids`;
    },
  };
}

/** Autocomplete: GET /api/tags?prefix=… (run with READ_CACHE_TTL_MS=0, as a visitor's repeats are cached). */
function tagSuggestions(name: string, prefix: string): ReadScenario {
  return {
    kind: 'read',
    name,
    path: `/api/tags?prefix=${prefix}`,
    skip: null,
    check: (reply) => (list(reply, 'tags').length > 0 ? null : `no tag starts with "${prefix}"`),
    describe: (reply) => `${list(reply, 'tags').length} tags`,
  };
}

/** Run with READ_CACHE_TTL_MS=0: otherwise visitors' repeated searches are served from the read cache. */
function search(name: string, path: string, empty = 'no results'): ReadScenario {
  return {
    kind: 'read',
    name,
    path,
    skip: null,
    check: (reply) => (list(reply, 'results').length > 0 ? null : empty),
    describe: (reply) => `${list(reply, 'results').length} results`,
    connections: LATENCY_CONNECTIONS,
  };
}

function postList(name: string, path: string, skip: string | null): ReadScenario {
  return {
    kind: 'read',
    name,
    path,
    skip,
    check: (reply) => (list(reply, 'posts').length > 0 ? null : 'the post list is empty'),
    describe: (reply) => describePosts(list(reply, 'posts')),
  };
}

function singlePost(name: string, id: string): ReadScenario {
  return {
    kind: 'read',
    name,
    path: `/api/posts/${id}?${VIEW}`,
    skip: id ? null : 'the data set names no such post',
    check: (reply) => (field(field(reply, 'post'), '_id') === id ? null : 'not the post asked for'),
    describe: (reply) => describePosts([field(reply, 'post')]),
  };
}

/** What makes a post reply big: the inline likes and comments lists. */
function describePosts(posts: unknown[]): string {
  const likes = posts.reduce<number>((sum, post) => sum + list(post, 'likes').length, 0);
  const comments = posts.reduce<number>((sum, post) => sum + list(post, 'comments').length, 0);
  const likesCount = posts.reduce<number>((sum, post) => sum + numberField(post, 'likesCount'), 0);
  const commentsCount = posts.reduce<number>((sum, post) => sum + numberField(post, 'commentsCount'), 0);
  const what = posts.length === 1 ? '1 post' : `${posts.length} posts`;
  return `${what}; likes ids ${likes}/${likesCount}, comments ${comments}/${commentsCount}`;
}

function numberField(value: unknown, key: string): number {
  const found = field(value, key);
  return typeof found === 'number' ? found : 0;
}
