import { CompiledQuery } from 'kysely';
import type { Response } from 'supertest';
import { runSeed, SEED_PASSWORD } from '../src/seed/run-seed';
import type { SeedSummary } from '../src/seed/seed-summary';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Every query the app runs for its lists and pages reads posts, likes, comments and follows through
 * an index, never by reading the whole table: at 100k posts a sequential scan costs milliseconds per
 * request where an index read costs a fraction of one, and the scan grows with the data.
 *
 * The statements are the ones the app really runs, recorded with their bound values by the query
 * observer while each request is served, then planned by the database itself on data the seeder
 * made (a realistic shape: long-tail authors, viral posts, heavy followers) and ANALYZEd.
 * PostgreSQL: EXPLAIN (FORMAT JSON), no "Seq Scan" node on those tables. SQLite: EXPLAIN QUERY
 * PLAN, no "SCAN <table>" step that uses no index.
 *
 * Feeds whose pages must cost the same however long the list is (`pagedInOrder`) must also read
 * their rows in the order shown: no sort of all the matching rows before the page is cut (a
 * "Sort" node over a table's rows on PostgreSQL, "USE TEMP B-TREE FOR ORDER BY" on SQLite). Only
 * the page's own few rows may be sorted once picked.
 */
const SIZES = { users: 2_000, posts: 100_000, likes: 200_000, comments: 50_000, follows: 40_000, notices: 5_000 };
const WATCHED_TABLES = ['posts', 'likes', 'comments', 'follows', 'post_tags', 'bookmarks', 'mutes', 'blocks'];
/**
 * Reported too, not held to it: a seq scan of a few thousand users for a hash join can be the right
 * plan, and so is one of the few rows of a reader's followed and muted tags.
 */
const TABLES = [...WATCHED_TABLES, 'users', 'notices', 'tag_prefs', 'tags'];
const NOW = new Date('2026-06-01T00:00:00.000Z');

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

interface Case {
  name: string;
  send: () => Promise<Response>;
  /** The page is read in its order from an index, never sorted whole (see the top of this file). */
  pagedInOrder?: boolean;
}

/** One step of a plan, in a form both dialects share. */
interface Step {
  table: string | null;
  /** "Seq Scan", "Index Only Scan Backward posts_created_idx", "SEARCH likes USING PRIMARY KEY (…)" … */
  how: string;
  fullScan: boolean;
  /** A sort of every row a query matched, before its LIMIT cuts the page (not of a page's own rows). */
  sortsWhole: boolean;
}

let t: TestApp;
let summary: SeedSummary;
let recorded: Statement[] | null = null;
let heavyAuth: string;
let lightAuth: string;
let lightFollows: number;
let mostFollowed: { id: string; followers: number };
/** The seed's most used tag, and a popular tag the heavy follower mutes (one they do not follow). */
let popularTag: string;
/** A tag on a few hundred of the 100k posts: where walking the newest posts would read far. */
let rareTag: string;
let mutedTag: string;
let hotCursor: string;
let tagDeepCursor: string;
let bookmarksDeepCursor: string;
const report: string[] = [];

beforeAll(async () => {
  t = await startTestApp({}, (text, parameters) => recorded?.push({ sql: text, parameters }));
  const started = performance.now();
  summary = await runSeed(t.config, { sizes: SIZES, seed: 6, reset: false, now: NOW, imageCount: 2 });
  report.push(
    `seeded ${JSON.stringify(summary.sizes)} in ${seconds(performance.now() - started)} (ms: ${JSON.stringify(summary.timings)})`,
  );
  if (summary.landmarks.heavyFollowerUserName === null) throw new Error('The seed made no heavy follower');
  heavyAuth = await signIn(summary.landmarks.heavyFollowerUserName);
  // Someone who follows a few people: the following feed takes its other form (IN instead of EXISTS).
  const light = await t.db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', 'follows.follower_id')
    .select(['users.user_name', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('users.user_name')
    .having((eb) => eb.fn.countAll(), '<=', 20)
    .orderBy('users.user_name')
    .executeTakeFirstOrThrow();
  lightFollows = Number(light.n);
  lightAuth = await signIn(light.user_name);
  // The profile with the longest followers list: where reading the list by index is least of a win.
  const popular = await t.db
    .selectFrom('follows')
    .select(['followee_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('followee_id')
    .orderBy('n', 'desc')
    .orderBy('followee_id')
    .executeTakeFirstOrThrow();
  mostFollowed = { id: popular.followee_id, followers: Number(popular.n) };
  // The seed tags posts (Zipf over a few hundred names); the heavy follower follows three of them.
  const byUse = await t.db.selectFrom('tags').select('name').orderBy('posts_count', 'desc').limit(8).execute();
  popularTag = summary.landmarks.popularTag ?? '';
  const rare = await t.db
    .selectFrom('tags')
    .select('name')
    .where('posts_count', '>=', 100)
    .orderBy('posts_count')
    .orderBy('name')
    .executeTakeFirstOrThrow();
  rareTag = rare.name;
  mutedTag =
    byUse.map((row) => row.name).find((name) => !summary.landmarks.signInUserFollowedTags.includes(name)) ?? '';
  // The heavy follower mutes a popular tag; the light one follows two more (beside any of their own).
  await t.http.put(`/api/tags/${mutedTag}/mute`).set('Authorization', heavyAuth).expect(200);
  await t.http
    .put(`/api/tags/${byUse[2]?.name ?? ''}/follow`)
    .set('Authorization', lightAuth)
    .expect(200);
  await t.http
    .put(`/api/tags/${byUse[6]?.name ?? ''}/follow`)
    .set('Authorization', lightAuth)
    .expect(200);
  // The heavy follower saved 3,000 posts (one in every 33, a save a minute): their bookmarks list
  // (decision 043) and every list they read, which says which of its posts they saved. A thousand
  // other users saved 20 each, so the reader's rows are a part of the table, as they would be.
  const saved = await t.db.selectFrom('posts').select('id').orderBy('id').execute();
  const savers = await t.db
    .selectFrom('users')
    .select('id')
    .where('id', '!=', landmark('heavyFollowerId'))
    .orderBy('id')
    .limit(1_000)
    .execute();
  const rows = [
    ...saved
      .filter((_, index) => index % 33 === 0)
      .map((row, index) => ({
        user_id: landmark('heavyFollowerId'),
        post_id: row.id,
        created_at: new Date(NOW.getTime() - index * 60_000).toISOString(),
      })),
    ...savers.flatMap((user, u) =>
      Array.from({ length: 20 }, (_, k) => ({
        user_id: user.id,
        post_id: saved[(u * 97 + k * 4_999) % saved.length]?.id ?? '',
        created_at: new Date(NOW.getTime() - (u * 20 + k) * 1_000).toISOString(),
      })),
    ),
  ];
  for (let start = 0; start < rows.length; start += 500) {
    await t.db
      .insertInto('bookmarks')
      .values(rows.slice(start, start + 500))
      .execute();
  }
  // The heavy follower mutes 200 users and blocks 50 (decision 048); 500 others mute and block 5
  // each, so the reader's rows are a part of each table. Every list they read probes mutes by key.
  const others = savers.map((user) => user.id);
  const relations = (count: number, from: (index: number) => string, to: (index: number) => string) =>
    Array.from({ length: count }, (_, index) => ({
      user_id: from(index),
      other_id: to(index),
      created_at: new Date(NOW.getTime() - index * 60_000).toISOString(),
    })).filter((row) => row.user_id !== row.other_id);
  for (const table of ['mutes', 'blocks'] as const) {
    const heavy = relations(
      table === 'mutes' ? 200 : 50,
      () => landmark('heavyFollowerId'),
      (i) => others[i * 3] ?? '',
    );
    const rest = relations(
      2_500,
      (i) => others[Math.floor(i / 5)] ?? '',
      (i) => others[(i * 7 + 1) % others.length] ?? '',
    );
    const unique = [...new Map([...heavy, ...rest].map((row) => [`${row.user_id} ${row.other_id}`, row])).values()];
    for (let start = 0; start < unique.length; start += 500)
      await t.db
        .insertInto(table)
        .values(unique.slice(start, start + 500))
        .execute();
  }
  await t.db.executeQuery(CompiledQuery.raw(t.dialect === 'postgres' ? 'analyze bookmarks, mutes, blocks' : 'analyze'));
  const bookmarksPage = await t.http.get('/api/bookmarks?limit=50').set('Authorization', heavyAuth).expect(200);
  let cursor = bookmarksPage.body.nextCursor as string;
  for (let page = 0; page < 20; page += 1) {
    const next = await t.http
      .get(`/api/bookmarks?limit=50&cursor=${encodeURIComponent(cursor)}`)
      .set('Authorization', heavyAuth)
      .expect(200);
    cursor = next.body.nextCursor as string;
  }
  bookmarksDeepCursor = cursor;
  hotCursor = await nextCursorOf('/api/posts?feed=hot&page=100');
  tagDeepCursor = await nextCursorOf(`/api/posts?feed=tag&tag=${popularTag}&page=100`);
}, 600_000);

/** A deep page's nextCursor: where a cursor page that far down starts. */
async function nextCursorOf(path: string): Promise<string> {
  const response = await t.http.get(path).expect(200);
  const cursor: unknown = response.body.nextCursor;
  if (typeof cursor !== 'string') throw new Error(`${path} gave no nextCursor`);
  return cursor;
}

afterAll(async () => {
  // Printed so that a reader of the CI log sees what each request's plan was, not only that it passed.
  if (report.length > 0) console.log(`Query plans (${t.dialect}):\n  ${report.join('\n  ')}`);
  await t?.close();
});

async function signIn(userName: string): Promise<string> {
  const response = await t.http.post('/api/signin').send({ userName, password: SEED_PASSWORD }).expect(200);
  return `Bearer ${response.body.token as string}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

const landmark = (name: keyof SeedSummary['landmarks']): string => {
  const value = summary.landmarks[name];
  if (typeof value !== 'string') throw new Error(`The seed has no ${name}`);
  return value;
};

const cases: Case[] = [
  { name: 'for-you feed, page 1, visitor', send: () => t.http.get('/api/posts'), pagedInOrder: true },
  // The page, its newest comments, plus the token's account and which of the page's posts the reader likes.
  {
    name: 'for-you feed, page 1, signed in (likedBy)',
    send: () => t.http.get('/api/posts').set('Authorization', heavyAuth),
  },
  {
    name: 'for-you feed, deep cursor (10,000 posts down)',
    send: () => t.http.get(`/api/posts?cursor=${encodeURIComponent(landmark('deepCursor'))}`),
    pagedInOrder: true,
  },
  // The hot feed (decision 033): by the stored score from posts_hot_idx, page 1 and by cursor.
  { name: 'hot feed, page 1, visitor', send: () => t.http.get('/api/posts?feed=hot'), pagedInOrder: true },
  {
    name: 'hot feed, cursor page (1,000 posts down)',
    send: () => t.http.get(`/api/posts?feed=hot&cursor=${encodeURIComponent(hotCursor)}`),
    pagedInOrder: true,
  },
  {
    name: 'hot feed, signed in, muting a tag',
    send: () => t.http.get('/api/posts?feed=hot').set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  { name: 'for-you feed, offset page 200', send: () => t.http.get('/api/posts?page=200') },
  {
    name: 'following feed, following 1,000 (EXISTS form)',
    send: () => t.http.get('/api/posts?feed=following').set('Authorization', heavyAuth),
  },
  {
    name: 'following feed, following few (IN form)',
    send: () => t.http.get('/api/posts?feed=following').set('Authorization', lightAuth),
  },
  {
    name: 'following feed by userId, deep page',
    send: () => t.http.get(`/api/posts?feed=following&userId=${landmark('heavyFollowerId')}&page=20`),
  },
  { name: 'top posts', send: () => t.http.get('/api/top-posts') },
  // Tags (decision 032): the mute filter is one NOT EXISTS on post_tags' and tag_prefs' primary keys.
  {
    name: 'for-you feed, signed in, muting a tag',
    send: () => t.http.get('/api/posts').set('Authorization', heavyAuth),
  },
  {
    name: 'following feed, following 1,000 and muting a tag',
    send: () => t.http.get('/api/posts?feed=following&page=3').set('Authorization', heavyAuth),
  },
  {
    name: 'top posts, signed in, muting a tag',
    send: () => t.http.get('/api/top-posts').set('Authorization', heavyAuth),
  },
  { name: 'top posts of the week', send: () => t.http.get('/api/top-posts?window=week') },
  // The tag feeds (decision 032) walk post_tags' (tag, created_at, post_id) index.
  {
    name: "the most used tag's feed, page 1",
    send: () => t.http.get(`/api/posts?feed=tag&tag=${popularTag}`),
    pagedInOrder: true,
  },
  {
    name: "the most used tag's feed, cursor page (1,000 posts down)",
    send: () => t.http.get(`/api/posts?feed=tag&tag=${popularTag}&cursor=${encodeURIComponent(tagDeepCursor)}`),
    pagedInOrder: true,
  },
  {
    name: "a rare tag's feed, page 1",
    send: () => t.http.get(`/api/posts?feed=tag&tag=${rareTag}`),
    pagedInOrder: true,
  },
  {
    name: 'a tag feed, signed in, muting a tag',
    send: () => t.http.get(`/api/posts?feed=tag&tag=${popularTag}`).set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  {
    name: 'the feed of the tags followed (three), muting a tag',
    send: () => t.http.get('/api/posts?feed=tags').set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  {
    name: 'the feed of the tags followed, page 3',
    send: () => t.http.get('/api/posts?feed=tags&page=3').set('Authorization', lightAuth),
    pagedInOrder: true,
  },
  { name: 'tag autocomplete', send: () => t.http.get('/api/tags?prefix=s').set('Authorization', lightAuth) },
  {
    name: 'a post with its conversation (the most-commented post)',
    send: () => t.http.get(`/api/posts/${landmark('manyCommentsPostId')}`).set('Authorization', heavyAuth),
  },
  {
    name: "a post's comments",
    send: () => t.http.get(`/api/posts/${landmark('manyCommentsPostId')}/comments`),
  },
  { name: 'the viral post', send: () => t.http.get(`/api/posts/${landmark('viralPostId')}`) },
  { name: "a profile's posts", send: () => t.http.get(`/api/userposts/${landmark('profileUserId')}`) },
  {
    name: "a profile's posts, page 3, signed in",
    send: () => t.http.get(`/api/userposts/${landmark('profileUserId')}?page=3`).set('Authorization', lightAuth),
  },
  {
    name: 'a profile with its followers and following',
    send: () => t.http.get(`/api/user/${landmark('profileUserId')}`),
  },
  {
    name: 'the most-followed profile',
    send: () => t.http.get(`/api/user/${mostFollowed.id}`),
  },
  {
    name: 'the profile of someone following 1,000',
    send: () => t.http.get(`/api/user/${landmark('heavyFollowerId')}`),
  },
  { name: 'all notices', send: () => t.http.get('/api/allnotices') },
  { name: 'all notices, page 50', send: () => t.http.get('/api/allnotices?page=50') },
  { name: "a user's notices", send: () => t.http.get(`/api/usernotices/${landmark('profileUserId')}`) },
  // The writes' statements too: counters, the commenter recount, the like row.
  {
    name: 'like the viral post',
    send: () =>
      t.http
        .put('/api/like')
        .set('Authorization', lightAuth)
        .send({ postId: landmark('viralPostId') }),
  },
  {
    name: 'unlike it',
    send: () =>
      t.http
        .put('/api/unlike')
        .set('Authorization', lightAuth)
        .send({ postId: landmark('viralPostId') }),
  },
  {
    name: 'comment on the most-commented post',
    send: () =>
      t.http
        .put('/api/comment')
        .set('Authorization', lightAuth)
        .send({ postId: landmark('manyCommentsPostId'), text: 'Planned comment' }),
  },
  {
    // Deleting frees the picture unless another post or profile still shows it: a lookup by URL.
    name: 'create and delete a post with a picture',
    send: async () => {
      const created = await t.http
        .post('/api/createpost')
        .set('Authorization', lightAuth)
        .send({ title: 'Short-lived', desc: 'Deleted at once', pic: summary.images[0] })
        .expect(201);
      return t.http.delete(`/api/deletepost/${created.body.post._id as string}`).set('Authorization', lightAuth);
    },
  },
  // Search (decision 034): on PostgreSQL the exact-title step is an equality on the indexed
  // post_title_key (a LIKE over lower(title) read every post), and the ranking window comes from
  // post_search alone with only the page joined to posts by primary key (a hash join against
  // every post before).
  { name: 'search posts, a common word', send: () => t.http.get('/api/search?q=kubernetes') },
  // Mutes (decision 048): one NOT EXISTS on mutes' primary key per row shown, and the comments'
  // muted flag the same per comment; the reader's own lists walk (user_id, created_at, other_id).
  {
    name: 'search posts, signed in, muting 200 users and a tag',
    send: () => t.http.get('/api/search?q=kubernetes').set('Authorization', heavyAuth),
  },
  {
    name: 'search notices, signed in, muting 200 users',
    send: () => t.http.get('/api/search?q=the&type=notices').set('Authorization', heavyAuth),
  },
  {
    name: 'all notices, signed in, muting 200 users',
    send: () => t.http.get('/api/allnotices?page=5').set('Authorization', heavyAuth),
  },
  {
    name: "a post's comments, signed in, muting 200 users",
    send: () =>
      t.http.get(`/api/posts/${landmark('manyCommentsPostId')}/comments?limit=50`).set('Authorization', heavyAuth),
  },
  {
    name: 'the hot feed, signed in, muting 200 users and a tag',
    send: () => t.http.get('/api/posts?feed=hot&page=2').set('Authorization', heavyAuth),
  },
  {
    name: 'the list of users muted, page 1',
    send: () => t.http.get('/api/mutes').set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  {
    name: 'the list of users blocked, page 1',
    send: () => t.http.get('/api/blocks').set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  { name: 'search posts, two words', send: () => t.http.get('/api/search?q=rust%20async') },
  // Bookmarks (decision 043): the reader's list walks (user_id, created_at, post_id) in order; q
  // and tag probe the search index and post_tags per bookmark walked.
  {
    name: 'bookmarks, page 1',
    send: () => t.http.get('/api/bookmarks').set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  {
    name: 'bookmarks, cursor page (1,050 bookmarks down)',
    send: () =>
      t.http.get(`/api/bookmarks?cursor=${encodeURIComponent(bookmarksDeepCursor)}`).set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  {
    name: 'bookmarks, searched within (a common word)',
    send: () => t.http.get('/api/bookmarks?q=kubernetes').set('Authorization', heavyAuth),
    pagedInOrder: true,
  },
  // Two selective filters at once: PostgreSQL reads the reader's bookmarks by their key (3,000
  // here) and sorts the few that match, rather than walk them in order. Bounded by the reader's own
  // list, never by the tag's or the word's posts site-wide, so not held to pagedInOrder.
  {
    name: 'bookmarks of the most used tag, searched within',
    send: () => t.http.get(`/api/bookmarks?tag=${popularTag}&q=rust`).set('Authorization', heavyAuth),
  },
  {
    name: 'bookmark the viral post, then take it back',
    send: async () => {
      await t.http
        .put('/api/bookmark')
        .set('Authorization', lightAuth)
        .send({ postId: landmark('viralPostId') })
        .expect(200);
      return t.http
        .put('/api/unbookmark')
        .set('Authorization', lightAuth)
        .send({ postId: landmark('viralPostId') });
    },
  },
  {
    name: 'follow the profile user',
    send: () =>
      t.http
        .put('/api/follow')
        .set('Authorization', lightAuth)
        .send({ followId: landmark('profileUserId') }),
  },
];

describe('query plans at 100k posts', () => {
  it('seeded the sizes asked for, with a heavy follower and a light one', () => {
    expect(summary.sizes).toEqual(SIZES);
    expect(summary.landmarks.heavyFollowerFollows).toBe(1_000);
    expect(lightFollows).toBeGreaterThan(0);
    expect(lightFollows).toBeLessThanOrEqual(20);
    report.push(`the most-followed user has ${mostFollowed.followers} followers`);
  });

  it.each(cases)(
    '$name reads posts, likes, comments and follows through indexes only',
    async ({ name, send, pagedInOrder }) => {
      recorded = [];
      const response = await send();
      const statements = recorded;
      recorded = null;
      expect(response.status).toBeLessThan(300);
      const queries = statements.filter((statement) => /^\s*(select|insert|update|delete|with)\b/i.test(statement.sql));
      expect(queries.length).toBeGreaterThan(0);

      const fullScans: { sql: string; step: string }[] = [];
      const wholeSorts: { sql: string; step: string }[] = [];
      const used = new Set<string>();
      for (const query of queries) {
        const steps = await planOf(query);
        if (pagedInOrder) {
          for (const step of steps.filter((candidate) => candidate.sortsWhole))
            wholeSorts.push({ sql: query.sql, step: step.how });
        }
        for (const step of steps) {
          // Steps on a subquery's alias (SQLite's "SCAN newest_0") are reported through its own tables.
          if (step.table === null || !TABLES.includes(step.table)) continue;
          used.add(`${step.table}: ${step.how}`);
          if (step.fullScan && WATCHED_TABLES.includes(step.table))
            fullScans.push({ sql: query.sql, step: `${step.table}: ${step.how}` });
        }
      }
      report.push(`${name} (${queries.length} statements): ${[...used].sort().join('; ')}`);
      expect(fullScans).toEqual([]);
      expect(wholeSorts).toEqual([]);
    },
  );
});

/** The plan of one recorded statement, as the database would run it with these values. */
async function planOf(statement: Statement): Promise<Step[]> {
  if (t.dialect === 'postgres') {
    const { rows } = await t.db.executeQuery<{ 'QUERY PLAN': { Plan: PostgresPlanNode }[] }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
    );
    const root = rows[0]?.['QUERY PLAN'][0]?.Plan;
    if (!root) throw new Error(`No plan for ${statement.sql}`);
    return postgresSteps(root);
  }
  const { rows } = await t.db.executeQuery<{ id: number; parent: number; detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]),
  );
  const steps = rows.map(({ parent, detail }) => {
    // "SCAN posts", "SCAN posts USING INDEX …", "SEARCH likes USING PRIMARY KEY (…)", "SCAN newest_0"…
    const match = /^(SCAN|SEARCH) (\w+)/.exec(detail);
    const table = match?.[2] ?? null;
    return { parent, table, how: detail, fullScan: match?.[1] === 'SCAN' && !/\bUSING\b/.test(detail) };
  });
  // A temp b-tree for ORDER BY inside a subquery (the page's ids) that reads a table itself sorts
  // all the rows it matched; at the top (parent 0) it sorts only the page's own rows, once picked.
  return steps.map(({ parent, ...step }) => ({
    ...step,
    sortsWhole:
      parent !== 0 &&
      /^USE TEMP B-TREE FOR .*ORDER BY/.test(step.how) &&
      steps.some((sibling) => sibling.parent === parent && WATCHED_TABLES.includes(sibling.table ?? '')),
  }));
}

interface PostgresPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  Plans?: PostgresPlanNode[];
}

function postgresSteps(node: PostgresPlanNode, underLimit = false): Step[] {
  // A bitmap heap scan reads the rows that its Bitmap Index Scan children found: name those indexes.
  const indexes = node['Index Name'] ? [node['Index Name']] : bitmapIndexes(node);
  const here: Step[] = node['Relation Name']
    ? [
        {
          table: node['Relation Name'],
          how: [node['Node Type'], node['Scan Direction'] === 'Backward' ? 'Backward' : '', ...indexes]
            .filter(Boolean)
            .join(' '),
          fullScan: node['Node Type'].includes('Seq Scan'),
          sortsWhole: false,
        },
      ]
    : [];
  // A Sort under a Limit with no Limit below it sorts every row matched before the page is cut; a
  // Sort over limited inputs (a merge of per-tag pages) or at the top (the page's rows) does not.
  if (node['Node Type'] === 'Sort' && underLimit && !hasLimitBelow(node)) {
    here.push({ table: null, how: 'Sort of every matched row under a Limit', fullScan: false, sortsWhole: true });
  }
  const limited = underLimit || node['Node Type'] === 'Limit';
  return [...here, ...(node.Plans ?? []).flatMap((child) => postgresSteps(child, limited))];
}

function hasLimitBelow(node: PostgresPlanNode): boolean {
  return (node.Plans ?? []).some((child) => child['Node Type'] === 'Limit' || hasLimitBelow(child));
}

function bitmapIndexes(node: PostgresPlanNode): string[] {
  if (node['Node Type'] !== 'Bitmap Heap Scan') return [];
  const found: string[] = [];
  const visit = (child: PostgresPlanNode): void => {
    if (child['Node Type'] === 'Bitmap Index Scan' && child['Index Name']) found.push(child['Index Name']);
    if (child['Node Type'].startsWith('Bitmap')) (child.Plans ?? []).forEach(visit);
  };
  (node.Plans ?? []).forEach(visit);
  return found;
}
