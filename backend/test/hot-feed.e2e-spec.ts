import type { Post } from '@techit/contract/api-types';
import type { Response } from 'supertest';
import { encodeCursor } from '../src/common/cursor';
import { down, up } from '../src/database/migrations/2026-11-26T00-20-00-hot-score';
import { hotScore } from '../src/posts/hot-score';
import { createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;
/** Every post's age is measured from here, so the scores (and their order) are exact. */
const BASE = Date.parse('2026-11-20T12:00:00.000Z');

function titles(body: { posts: Post[] }): string[] {
  return body.posts.map((post) => post.title);
}

function hot(t: TestApp, query: Record<string, string | number> = {}) {
  return t.http.get('/api/posts').query({ feed: 'hot', ...query });
}

/** Every post of the hot feed, walked through nextCursor; `between` runs after each page. */
async function walk(t: TestApp, limit: number, between: (seen: string[]) => Promise<void> = async () => {}) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 1; page <= 50; page += 1) {
    const response: Response = await hot(t, cursor ? { limit, cursor } : { limit }).expect(200);
    seen.push(...titles(response.body));
    cursor = response.body.nextCursor;
    if (!cursor) return seen;
    await between(seen);
  }
  throw new Error('the cursor never ended');
}

/** Moves a post's creation back to `from` - hours (the score follows at its next like or comment). */
async function backdate(t: TestApp, post: Post, hours: number, from = BASE): Promise<void> {
  await t.db
    .updateTable('posts')
    .set({ created_at: new Date(from - hours * HOUR).toISOString() })
    .where('id', '=', post._id)
    .execute();
}

async function like(t: TestApp, user: TestUser, post: Post, action: 'like' | 'unlike' = 'like') {
  await t.http.put(`/api/${action}`).set('Authorization', user.auth).send({ postId: post._id }).expect(200);
}

async function comment(t: TestApp, user: TestUser, post: Post): Promise<string> {
  const response = await t.http
    .put('/api/comment')
    .set('Authorization', user.auth)
    .send({ postId: post._id, text: 'hi' })
    .expect(200);
  const mine = (response.body.comments as { _id: string; postedBy: { _id: string } }[]).filter(
    (c) => c.postedBy._id === user.id,
  );
  return mine[mine.length - 1]._id;
}

describe('GET /api/posts?feed=hot: the order is the formula', () => {
  let t: TestApp;
  let author: TestUser;
  let fans: TestUser[];
  const posts: Record<string, Post> = {};
  const talkComments: { user: TestUser; id: string }[] = [];

  // name → hours old, likes, distinct commenters (not the author), highest score first:
  //   talked   5 h, 0 likes, 3 commenters → log10(6) − 0.4  = +0.378
  //   liked    6 h, 6 likes               → log10(6) − 0.48 = +0.298
  //   old-fav 10 h, 8 likes               → log10(8) − 0.8  = +0.103
  //   fresh    0 h, nothing               → 0               =  0
  //   hour-old 1 h, 1 like                → 0 − 0.08        = −0.08
  //   ancient 48 h, 8 likes, 4 commenters → log10(16) − 3.84 = −2.64
  beforeAll(async () => {
    t = await startTestApp();
    author = await createUser(t);
    fans = [];
    for (let i = 0; i < 8; i += 1) fans.push(await createUser(t));
    for (const [name, hours] of [
      ['ancient', 48],
      ['old-fav', 10],
      ['liked', 6],
      ['talked', 5],
      ['hour-old', 1],
      ['fresh', 0],
    ] as const) {
      posts[name] = await createPost(t, author, { title: name });
      await backdate(t, posts[name], hours);
    }
    for (const fan of fans) await like(t, fan, posts['old-fav']);
    for (const fan of fans.slice(0, 6)) await like(t, fan, posts.liked);
    for (const fan of fans) await like(t, fan, posts.ancient);
    await like(t, fans[0], posts['hour-old']);
    // Three distinct commenters; the first comments twice, which counts once.
    for (const fan of [fans[0], fans[0], fans[1], fans[2]]) {
      talkComments.push({ user: fan, id: await comment(t, fan, posts.talked) });
    }
    for (const fan of fans.slice(0, 4)) await comment(t, fan, posts.ancient);
    // A like taken back leaves the counters as they were and rescores from the backdated time.
    await like(t, fans[0], posts.fresh);
    await like(t, fans[0], posts.fresh, 'unlike');
  });
  afterAll(() => t.close());

  const EXPECTED = ['talked', 'liked', 'old-fav', 'fresh', 'hour-old', 'ancient'];

  it('puts the highest log10(max(1, likes + 2 × commenters)) + createdAt/45000 first', async () => {
    const response = await hot(t, { limit: 10 }).expect(200);
    expect(titles(response.body)).toEqual(EXPECTED);
    expect(response.body.nextCursor).toBeNull();
  });

  it('stores exactly the score the formula gives for each post', async () => {
    const rows = await t.db
      .selectFrom('posts')
      .select(['title', 'likes_count', 'commenters_count', 'created_at', 'hot_score'])
      .execute();
    for (const row of rows) expect(row.hot_score).toBe(hotScore(row));
    const talked = rows.find((row) => row.title === 'talked');
    expect(talked?.commenters_count).toBe(3);
  });

  it('pages by number and by cursor through the same order', async () => {
    const byPage: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      byPage.push(...titles((await hot(t, { limit: 2, page }).expect(200)).body));
    }
    expect(byPage).toEqual(EXPECTED);
    expect(await walk(t, 2)).toEqual(EXPECTED);
  });

  it('moves a post down when its comments are deleted, in the same request', async () => {
    for (const { user, id } of talkComments) {
      await t.http.delete(`/api/comment/${posts.talked._id}/${id}`).set('Authorization', user.auth).expect(200);
    }
    // talked: 5 h old, nothing left → −0.4, between hour-old and ancient.
    expect(titles((await hot(t, { limit: 10 }).expect(200)).body)).toEqual([
      'liked',
      'old-fav',
      'fresh',
      'hour-old',
      'talked',
      'ancient',
    ]);
  });

  it("refuses another feed's cursor, and a hot cursor elsewhere, with 400", async () => {
    const forYou = encodeCursor({ createdAt: new Date(BASE).toISOString(), id: posts.fresh._id });
    const bad = await hot(t, { cursor: forYou }).expect(400);
    expect(bad.body).toEqual({ error: 'That cursor is not valid; start again from the first page' });
    const hotCursor = (await hot(t, { limit: 1 }).expect(200)).body.nextCursor as string;
    await t.http.get('/api/posts').query({ cursor: hotCursor }).expect(400);
    const nan = Buffer.from(`hot|NaN|${posts.fresh._id}`).toString('base64url');
    await hot(t, { cursor: nan }).expect(400);
  });

  it('gives existing posts their score in the migration', async () => {
    await down(t.db);
    await up(t.db);
    expect(titles((await hot(t, { limit: 10 }).expect(200)).body)).toEqual([
      'liked',
      'old-fav',
      'fresh',
      'hour-old',
      'talked',
      'ancient',
    ]);
    const rows = await t.db
      .selectFrom('posts')
      .select(['likes_count', 'commenters_count', 'created_at', 'hot_score'])
      .execute();
    for (const row of rows) expect(row.hot_score).toBe(hotScore(row));
  });
});

describe('GET /api/posts?feed=hot: walking by cursor while likes arrive', () => {
  let t: TestApp;
  let author: TestUser;
  let fans: TestUser[];
  const posts: Post[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    author = await createUser(t);
    fans = [];
    for (let i = 0; i < 3; i += 1) fans.push(await createUser(t));
    // p0 … p9, one hour apart, p9 newest: with no likes the hot order is newest first.
    for (let i = 0; i < 10; i += 1) {
      const post = await createPost(t, author, { title: `p${i}` });
      await backdate(t, post, 10 - i);
      posts.push(post);
    }
    for (const post of posts) {
      await like(t, fans[0], post);
      await like(t, fans[0], post, 'unlike');
    }
  });
  afterAll(() => t.close());

  it('shows every post exactly once when nothing changes', async () => {
    expect(await walk(t, 3)).toEqual(['p9', 'p8', 'p7', 'p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
  });

  it('never shows a post twice, nor misses one, when posts already shown are liked between pages', async () => {
    const liked: string[] = [];
    const seen = await walk(t, 3, async (shown) => {
      // The last post shown rises to the top (three likes, +0.48): the walk is past it and does not
      // repeat it; the posts not yet shown keep their places below the cursor.
      const title = shown[shown.length - 1];
      liked.push(title);
      const post = posts.find((p) => p.title === title);
      if (!post) throw new Error(title);
      for (const fan of fans) await like(t, fan, post);
    });
    expect(seen).toEqual(['p9', 'p8', 'p7', 'p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
    expect(liked).toEqual(['p7', 'p4', 'p1']);
    // The liked posts did move: p7 (3 h old) and p4 (6 h) now lead a fresh first page.
    expect(titles((await hot(t, { limit: 3 }).expect(200)).body)).toEqual(['p7', 'p4', 'p9']);
  });
});

describe('GET /api/posts?feed=hot: read cache and documentation', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Visitors' reads cached (docs/decisions/008-read-cache.md): a like must still move the post at once.
    t = await startTestApp({ READ_CACHE_TTL_MS: '60000' });
  });
  afterAll(() => t.close());

  it("answers a visitor's cached hot page anew after a comment", async () => {
    const author = await createUser(t);
    const fan = await createUser(t);
    const older = await createPost(t, author, { title: 'older' });
    await backdate(t, older, 2, Date.now());
    await like(t, fan, older);
    await like(t, fan, older, 'unlike');
    await createPost(t, author, { title: 'newer' });
    expect(titles((await hot(t).expect(200)).body)).toEqual(['newer', 'older']);
    expect(titles((await hot(t).expect(200)).body)).toEqual(['newer', 'older']);
    // 2 h behind is −0.16; two distinct commenters lift it by log10(4) = 0.6, above the new post.
    const other = await createUser(t);
    await comment(t, fan, older);
    await comment(t, other, older);
    expect(titles((await hot(t).expect(200)).body)).toEqual(['older', 'newer']);
  });

  it('documents hot among the feeds in Swagger', async () => {
    const spec = (await t.http.get('/api/docs-json').expect(200)).body as {
      paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }>;
    };
    const feed = spec.paths['/api/posts'].get.parameters.find((p) => p.name === 'feed');
    expect(feed?.schema.enum).toEqual(['for-you', 'following', 'hot', 'tag', 'tags']);
  });
});

describe('GET /api/posts?feed=hot: tags', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("carries each post's tags and leaves out a muted tag's posts for that reader only", async () => {
    const author = await createUser(t);
    const muter = await createUser(t);
    const other = await createUser(t);
    await createPost(t, author, { title: 'tagged-go', tags: ['go', 'web'] });
    await createPost(t, author, { title: 'tagged-rust', tags: ['rust'] });
    await createPost(t, author, { title: 'untagged' });
    await t.http.put('/api/tags/go/mute').set('Authorization', muter.auth).expect(200);

    const tagsByTitle = (body: { posts: Post[] }) =>
      Object.fromEntries(body.posts.map((post) => [post.title, post.tags]));
    // Compact (the default) and full lists both carry the tags, for a visitor too.
    for (const view of ['compact', 'full']) {
      expect(tagsByTitle((await hot(t, { view }).expect(200)).body)).toEqual({
        'tagged-go': ['go', 'web'],
        'tagged-rust': ['rust'],
        untagged: [],
      });
    }
    const forMuter = await hot(t).set('Authorization', muter.auth).expect(200);
    expect(titles(forMuter.body)).toEqual(['untagged', 'tagged-rust']);
    expect(tagsByTitle(forMuter.body)).toEqual({ 'tagged-rust': ['rust'], untagged: [] });
    // By cursor too: the muted post is not on a later page either.
    const first = await hot(t, { limit: 1 }).set('Authorization', muter.auth).expect(200);
    const second = await hot(t, { limit: 5, cursor: first.body.nextCursor as string })
      .set('Authorization', muter.auth)
      .expect(200);
    expect([...titles(first.body), ...titles(second.body)]).toEqual(['untagged', 'tagged-rust']);
    // Another signed-in reader and a visitor still see it.
    expect(titles((await hot(t).set('Authorization', other.auth).expect(200)).body)).toContain('tagged-go');
    expect(titles((await hot(t).expect(200)).body)).toEqual(['untagged', 'tagged-rust', 'tagged-go']);
  });
});
