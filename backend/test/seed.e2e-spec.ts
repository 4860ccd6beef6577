import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, USER_NAME_PATTERN } from '@techit/contract/limits';
import { TAG_PATTERN } from '@techit/contract/tag-rules';
import { WRONG_POST_COUNTERS_QUERY } from '@techit/testkit/counter-query';
import { sql } from 'kysely';
import { isHttpUrl } from '@techit/contract/url-rules';
import { RENDERER_VERSION } from '../src/markdown/markdown-renderer';
import { MarkdownService } from '../src/markdown/markdown.service';
import { isoTime } from '../src/seed/iso-time';
import { longTail } from '../src/seed/long-tail';
import { runSeed, SEED_PASSWORD, SEED_SUMMARY_FILE } from '../src/seed/run-seed';
import type { SeedSummary } from '../src/seed/seed-summary';
import { SEED_TAGS } from '../src/seed/seed-tags';
import { DEFAULT_SIZES, parseSeedArgs, SeedUsageError } from '../src/seed/seed-options';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

const SIZES = { users: 50, posts: 300, likes: 2000, comments: 600, follows: 400, notices: 30 };
const NOW = new Date('2026-06-01T00:00:00.000Z');
const TWO_YEARS_MS = 730 * 86_400_000;
/** Small enough for 300 posts, so the deep-page cursor is exercised without 10,000 of them. */
const DEEP_AFTER = 100;

let t: TestApp;
let summary: SeedSummary;

function seed(options: { seed: number; reset: boolean; deepCursorAfter?: number }): Promise<SeedSummary> {
  return runSeed(t.config, { sizes: SIZES, now: NOW, imageCount: 2, ...options });
}

async function count(query: Promise<{ rows: { n: number | string }[] }>): Promise<number> {
  return Number((await query).rows[0]?.n);
}

/** The data with what is random on purpose (argon2's salt, the stored files' names) made stable. */
async function comparableSnapshot(of: SeedSummary): Promise<string> {
  let text = await snapshot(t.db);
  of.images.forEach((url, index) => (text = text.split(url).join(`<image ${index}>`)));
  const hashes = await t.db.selectFrom('users').select('password_hash').distinct().execute();
  for (const { password_hash } of hashes) text = text.split(password_hash).join('<hash>');
  return text;
}

beforeAll(async () => {
  t = await startTestApp();
  summary = await seed({ seed: 7, reset: false, deepCursorAfter: DEEP_AFTER });
});

afterAll(() => t.close());

describe('npm run seed', () => {
  it('inserts the sizes asked for and writes them, with the landmarks, to DATA_DIR/seed-summary.json', async () => {
    expect(summary.sizes).toEqual(SIZES);
    expect(summary.dialect).toBe(t.dialect);
    for (const table of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      expect(await count(sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.db))).toBe(
        SIZES[table],
      );
    }
    const written = JSON.parse(readFileSync(join(t.config.dataDir, SEED_SUMMARY_FILE), 'utf8')) as SeedSummary;
    expect(written).toEqual(summary);
    expect(written.password).toBe(SEED_PASSWORD);
  });

  it('keeps every post counter equal to its rows: likes, comments and distinct commenters', async () => {
    const wrong = await sql.raw<{ id: string }>(WRONG_POST_COUNTERS_QUERY).execute(t.db);
    expect(wrong.rows).toEqual([]);
    // Not all zero: the check above would pass on an empty shape too.
    expect(
      await count(sql<{ n: number }>`select count(*) as n from posts where commenters_count > 0`.execute(t.db)),
    ).toBeGreaterThan(0);
  });

  it('writes no self-follow and no row pointing at a missing user or post (the load runs without key checks)', async () => {
    expect(
      await count(sql<{ n: number }>`select count(*) as n from follows where follower_id = followee_id`.execute(t.db)),
    ).toBe(0);
    const orphans = sql<{ n: number }>`
      select (select count(*) from likes l where not exists (select 1 from posts p where p.id = l.post_id)
                                              or not exists (select 1 from users u where u.id = l.user_id))
           + (select count(*) from comments c where not exists (select 1 from posts p where p.id = c.post_id)
                                                 or not exists (select 1 from users u where u.id = c.author_id))
           + (select count(*) from follows f where not exists (select 1 from users u where u.id = f.follower_id)
                                                or not exists (select 1 from users u where u.id = f.followee_id))
           + (select count(*) from posts p where not exists (select 1 from users u where u.id = p.author_id))
           + (select count(*) from notices n where not exists (select 1 from users u where u.id = n.author_id))
           + (select count(*) from post_tags pt where not exists (select 1 from posts p where p.id = pt.post_id)
                                                  or not exists (select 1 from tags g where g.name = pt.tag))
           + (select count(*) from tag_prefs tp where not exists (select 1 from users u where u.id = tp.user_id)
                                                  or not exists (select 1 from tags g where g.name = tp.tag)) as n`.execute(
      t.db,
    );
    expect(await count(orphans)).toBe(0);
  });

  it('gives realistic shapes: valid unique names, two years of posts, ids stamped with their time, a third with images', async () => {
    const users = await t.db.selectFrom('users').select(['user_name', 'email', 'email_key', 'pic']).execute();
    for (const user of users) {
      expect(user.user_name).toMatch(USER_NAME_PATTERN);
      expect(user.user_name.length).toBeGreaterThanOrEqual(LIMITS.userNameMin);
      expect(user.user_name.length).toBeLessThanOrEqual(LIMITS.userNameMax);
      expect(user.email_key).toBe(user.email.normalize('NFC').toLowerCase());
    }
    expect(new Set(users.map((user) => user.user_name.toLowerCase())).size).toBe(users.length);

    const posts = await t.db
      .selectFrom('posts')
      .select(['id', 'created_at', 'photo', 'title', 'description'])
      .execute();
    for (const post of posts) {
      const created = Date.parse(post.created_at);
      expect(created).toBeGreaterThanOrEqual(NOW.getTime() - TWO_YEARS_MS);
      expect(created).toBeLessThanOrEqual(NOW.getTime());
      expect(parseInt(post.id.slice(0, 8), 16)).toBe(Math.floor(created / 1000));
      expect(post.title.length).toBeLessThanOrEqual(LIMITS.postTitleMax);
      expect(post.description.length).toBeLessThanOrEqual(LIMITS.postDescMax);
      if (post.photo) expect(summary.images).toContain(post.photo);
    }
    const withPhoto = posts.filter((post) => post.photo).length / posts.length;
    expect(withPhoto).toBeGreaterThan(0.25);
    expect(withPhoto).toBeLessThan(0.42);

    const notices = await t.db.selectFrom('notices').select(['links', 'tags']).execute();
    for (const notice of notices) {
      const links = JSON.parse(notice.links) as string[];
      expect(links.length).toBeLessThanOrEqual(LIMITS.noticeLinksMax);
      for (const link of links) expect(isHttpUrl(link) && link.startsWith('https://')).toBe(true);
    }
  });

  it('stores the HTML of every post, comment and notice as the app renders it on save (no rerender needed)', async () => {
    const renderer = t.app.get(MarkdownService);
    for (const table of ['posts', 'comments', 'notices'] as const) {
      const stale = await t.db.selectFrom(table).select('id').where('render_version', '<>', RENDERER_VERSION).execute();
      expect({ table, stale }).toEqual({ table, stale: [] });
    }
    const posts = await t.db
      .selectFrom('posts')
      .select(['description', 'desc_html', 'body', 'body_html'])
      .limit(3)
      .execute();
    for (const post of posts) {
      expect(post).toMatchObject({ body: '', body_html: '' });
      expect(post.desc_html).toBe(await renderer.render(post.description, 'comment'));
    }
    const comment = await t.db.selectFrom('comments').select(['text', 'text_html']).executeTakeFirstOrThrow();
    expect(comment.text_html).toBe(await renderer.render(comment.text, 'comment'));
    const notice = await t.db.selectFrom('notices').select(['description', 'desc_html']).executeTakeFirstOrThrow();
    expect(notice.desc_html).toBe(await renderer.render(notice.description, 'notice'));
  });

  it('makes likes long-tailed: the viral post has every user, most posts only a few', async () => {
    const { viralPostId, viralPostLikes } = summary.landmarks;
    const max = await t.db
      .selectFrom('posts')
      .select((eb) => eb.fn.max('likes_count').as('max'))
      .executeTakeFirstOrThrow();
    expect(viralPostLikes).toBe(Math.min(SIZES.users, 10_000));
    expect(Number(max.max)).toBe(viralPostLikes);
    const viral = await t.http.get(`/api/posts/${viralPostId}`).expect(200);
    expect(viral.body.post.likesCount).toBe(viralPostLikes);
    const median = await t.db
      .selectFrom('posts')
      .select('likes_count')
      .orderBy('likes_count')
      .offset(SIZES.posts / 2)
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(median.likes_count).toBeLessThan(SIZES.likes / SIZES.posts);
  });

  it('holds the other landmarks: a post with exactly 200 comments, the heavy follower, a profile with posts', async () => {
    const {
      manyCommentsPostId,
      manyCommentsPostComments,
      heavyFollowerId,
      heavyFollowerUserName,
      heavyFollowerFollows,
      profileUserId,
    } = summary.landmarks;
    expect(manyCommentsPostComments).toBe(200);
    const detail = await t.http.get(`/api/posts/${manyCommentsPostId}`).expect(200);
    expect(detail.body.post.commentsCount).toBe(200);
    expect(detail.body.post.comments).toHaveLength(200);

    expect(heavyFollowerFollows).toBe(Math.min(1000, SIZES.users - 1));
    const heavy = await t.http.get(`/api/user/${heavyFollowerId}`).expect(200);
    expect(heavy.body.user.userName).toBe(heavyFollowerUserName);
    expect(heavy.body.user.following).toHaveLength(heavyFollowerFollows);

    const perUser = await t.db
      .selectFrom('posts')
      .select(['author_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy('author_id')
      .execute();
    const most = Math.max(...perUser.map((row) => Number(row.n)));
    const profilePosts = Number(perUser.find((row) => row.author_id === profileUserId)?.n ?? 0);
    expect(profilePosts).toBeGreaterThanOrEqual(Math.min(20, most));
  });

  it('gives the deep cursor that pages on right after the N-th newest post', async () => {
    const expected = await t.db
      .selectFrom('posts')
      .select('id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(DEEP_AFTER)
      .limit(4)
      .execute();
    const page = await t.http
      .get('/api/posts')
      .query({ feed: 'for-you', cursor: summary.landmarks.deepCursor, limit: 4 })
      .expect(200);
    expect(page.body.posts.map((post: { _id: string }) => post._id)).toEqual(expected.map((row) => row.id));
  });

  it('gives posts 0–4 valid tags in their own order, dated as their post, popular names on many posts', async () => {
    expect(SEED_TAGS.length).toBeGreaterThanOrEqual(200);
    expect(SEED_TAGS.every((name) => TAG_PATTERN.test(name))).toBe(true);
    const rows = await t.db
      .selectFrom('post_tags')
      .innerJoin('posts', 'posts.id', 'post_tags.post_id')
      .select([
        'post_tags.post_id',
        'post_tags.tag',
        'post_tags.position',
        'post_tags.created_at',
        'posts.created_at as posted',
      ])
      .orderBy('post_tags.post_id')
      .orderBy('post_tags.position')
      .execute();
    const byPost = new Map<string, number[]>();
    for (const row of rows) {
      expect(SEED_TAGS).toContain(row.tag);
      expect(row.created_at).toBe(row.posted);
      byPost.set(row.post_id, [...(byPost.get(row.post_id) ?? []), Number(row.position)]);
    }
    for (const positions of byPost.values()) {
      expect(positions.length).toBeLessThanOrEqual(LIMITS.postTagsMax);
      expect(positions).toEqual(positions.map((_, index) => index));
    }
    // Some posts have none, most have some; use falls off with rank (Zipf) over many names.
    expect(byPost.size).toBeGreaterThan(SIZES.posts * 0.7);
    expect(byPost.size).toBeLessThan(SIZES.posts);
    const perTag = new Map<string, number>();
    for (const row of rows) perTag.set(row.tag, (perTag.get(row.tag) ?? 0) + 1);
    expect(perTag.size).toBeGreaterThan(50);
    const top = [...perTag.entries()].sort((a, b) => b[1] - a[1])[0];
    expect(top[0]).toBe(summary.landmarks.popularTag);
    expect(top[1]).toBeGreaterThan(rows.length / 10);

    // Post replies carry them as stored, in order.
    const [postId, positions] = [...byPost.entries()].find(([, list]) => list.length >= 2) ?? ['', []];
    const reply = await t.http.get(`/api/posts/${postId}`).expect(200);
    expect(reply.body.post.tags).toEqual(rows.filter((row) => row.post_id === postId).map((row) => row.tag));
    expect(reply.body.post.tags).toHaveLength(positions.length);
  });

  it('keeps the tags table equal to its rows, as the API reports it: posts, followers, autocomplete', async () => {
    const wrong = await sql<{ name: string }>`
      select name from tags g
       where posts_count <> (select count(*) from post_tags pt where pt.tag = g.name)
          or followers_count <> (select count(*) from tag_prefs tp where tp.tag = g.name and tp.kind = 'follow')
          or not exists (select 1 from post_tags pt where pt.tag = g.name union all
                         select 1 from tag_prefs tp where tp.tag = g.name)`.execute(t.db);
    expect(wrong.rows).toEqual([]);
    expect(
      await count(sql<{ n: number }>`select count(*) as n from tag_prefs where kind = 'follow'`.execute(t.db)),
    ).toBeGreaterThan(0);
    expect(
      await count(
        sql<{ n: number }>`select count(*) as n from tag_prefs where kind not in ('follow', 'mute')`.execute(t.db),
      ),
    ).toBe(0);

    const popular = summary.landmarks.popularTag ?? '';
    const stored = await t.db.selectFrom('tags').selectAll().where('name', '=', popular).executeTakeFirstOrThrow();
    const tag = await t.http.get(`/api/tags/${popular}`).expect(200);
    expect(tag.body.tag).toMatchObject({
      name: popular,
      postsCount: Number(stored.posts_count),
      followersCount: Number(stored.followers_count),
    });
    const feed = await t.http.get('/api/posts').query({ feed: 'tag', tag: popular, limit: 50 }).expect(200);
    expect(feed.body.posts.length).toBe(Math.min(50, Number(stored.posts_count)));
    const suggestions = await t.http
      .get('/api/tags')
      .query({ prefix: popular.slice(0, 2) })
      .expect(200);
    expect(suggestions.body.tags[0]).toMatchObject({ name: popular });
  });

  it('makes the sign-in user follow a few tags, so their tags feed has posts', async () => {
    const followed = summary.landmarks.signInUserFollowedTags;
    expect(followed).toHaveLength(3);
    const prefs = await t.db
      .selectFrom('tag_prefs')
      .select(['tag', 'kind'])
      .where('user_id', '=', summary.landmarks.heavyFollowerId)
      .execute();
    expect(prefs.map((pref) => pref.tag).sort()).toEqual([...followed].sort());
    expect(prefs.every((pref) => pref.kind === 'follow')).toBe(true);
    const signIn = await t.http
      .post('/api/signin')
      .send({ userName: summary.landmarks.signInUserName, password: summary.password })
      .expect(200);
    const feed = await t.http
      .get('/api/posts')
      .query({ feed: 'tags', limit: 10 })
      .set('authorization', `Bearer ${signIn.body.token}`)
      .expect(200);
    expect(feed.body.posts.length).toBeGreaterThan(0);
    for (const post of feed.body.posts as { tags: string[] }[]) {
      expect(post.tags.some((name) => followed.includes(name))).toBe(true);
    }
  });

  it('lets every seeded user sign in with the one password in the summary', async () => {
    const reply = await t.http
      .post('/api/signin')
      .send({ userName: summary.landmarks.signInUserName, password: summary.password })
      .expect(200);
    expect(reply.body.user._id).toBe(summary.landmarks.heavyFollowerId);
  });

  it('stores its pictures through the upload pipeline, served as WebP, and gives some avatars one', async () => {
    expect(summary.images).toHaveLength(2);
    for (const url of summary.images) {
      const reply = await t.http.get(url).expect(200);
      expect(reply.headers['content-type']).toBe('image/webp');
    }
    const pics = await t.db.selectFrom('users').select('pic').execute();
    expect(pics.some((row) => summary.images.includes(row.pic))).toBe(true);
  });

  it('refuses a database that holds posts unless --reset, and the same seed reproduces the same data', async () => {
    const before = await comparableSnapshot(summary);
    await expect(seed({ seed: 7, reset: false })).rejects.toThrow(SeedUsageError);
    expect(await comparableSnapshot(summary)).toBe(before);

    const other = await seed({ seed: 8, reset: true });
    expect(await comparableSnapshot(other)).not.toBe(before);

    const again = await seed({ seed: 7, reset: true });
    expect(await comparableSnapshot(again)).toBe(before);
    expect({ ...again.landmarks, deepCursor: summary.landmarks.deepCursor }).toEqual(summary.landmarks);
    // 300 posts do not reach the default 10,000: no deep page to point at.
    expect(again.landmarks.deepCursor).toBeNull();
  });
});

describe('seed flags', () => {
  it('defaults every size and accepts "--flag value" and "--flag=value"', () => {
    expect(parseSeedArgs([])).toEqual({ sizes: DEFAULT_SIZES, seed: 1, reset: false });
    expect(parseSeedArgs(['--posts', '10', '--likes=5', '--seed', '3', '--reset'])).toEqual({
      sizes: { ...DEFAULT_SIZES, posts: 10, likes: 5 },
      seed: 3,
      reset: true,
    });
  });

  it.each([
    ['--bogus'],
    ['--posts'],
    ['--posts', '-1'],
    ['--posts', '1e3'],
    ['--users=ten'],
    ['--users', '0', '--posts', '5'],
  ])('rejects %j with a one-line usage error', (...args) => {
    expect(() => parseSeedArgs(args)).toThrow(SeedUsageError);
    try {
      parseSeedArgs(args);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('seed helpers', () => {
  it('longTail sums exactly, respects the cap and falls off with rank', () => {
    // Small: global lookups (Math) are slow inside jest's VM context; the CLI runs 100,000 posts.
    const counts = longTail(9_500, 2_000, 100, 1);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(9_500);
    expect(counts[0]).toBe(100);
    expect(counts.every((n, rank) => rank === 0 || n <= counts[rank - 1])).toBe(true);
    expect(counts[counts.length - 1]).toBeLessThan(2);
    expect(longTail(10, 2, 3, 1)).toEqual(Int32Array.from([3, 3]));
  });

  it('isoTime writes what Date#toISOString writes', () => {
    for (const ms of [
      0,
      1,
      999,
      86_399_999,
      1_700_000_000_123,
      NOW.getTime() - 1,
      NOW.getTime() - TWO_YEARS_MS + 12_345.9,
    ]) {
      expect(isoTime(ms)).toBe(new Date(Math.floor(ms)).toISOString());
    }
  });
});
