import type { Post, Tag } from '@techit/contract/api-types';
import { normaliseTags } from '@techit/contract/tag-rules';
import type { Response } from 'supertest';
import { createPost, createUser, type TestUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;

afterEach(async () => {
  if (t) await t.close();
});

async function fresh(settings: Record<string, string> = {}): Promise<TestApp> {
  t = await startTestApp(settings);
  return t;
}

async function expectRejected(send: () => PromiseLike<Response>, status: number, error?: RegExp): Promise<void> {
  const before = await snapshot(t.db);
  const response = await send();
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: error ? expect.stringMatching(error) : expect.any(String) },
  });
  expect(await snapshot(t.db)).toEqual(before);
}

function tagOf(user: TestUser | null, name: string) {
  const request = t.http.get(`/api/tags/${encodeURIComponent(name)}`);
  return (user ? request.set('Authorization', user.auth) : request).expect(200).then((r) => r.body.tag as Tag);
}

function pref(user: TestUser, name: string, action: 'follow' | 'unfollow' | 'mute' | 'unmute') {
  return t.http.put(`/api/tags/${name}/${action}`).set('Authorization', user.auth);
}

function feed(query: Record<string, string | number>, user?: TestUser | null) {
  const request = t.http.get('/api/posts').query(query);
  return user ? request.set('Authorization', user.auth) : request;
}

async function feedTitles(query: Record<string, string | number>, user?: TestUser | null): Promise<string[]> {
  const response = await feed({ limit: 50, ...query }, user).expect(200);
  return (response.body.posts as Post[]).map((post) => post.title);
}

/** Every page of a feed by cursor (or by page number), the titles in order. */
async function walk(query: Record<string, string | number>, user: TestUser, by: 'cursor' | 'page'): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | null = null;
  for (let page = 1; page <= 20; page++) {
    const step: Record<string, string | number> =
      by === 'cursor' ? (cursor ? { ...query, cursor } : query) : { ...query, page };
    const response: Response = await feed({ limit: 2, ...step }, user).expect(200);
    const posts = response.body.posts as Post[];
    titles.push(...posts.map((post) => post.title));
    cursor = response.body.nextCursor as string | null;
    if (by === 'cursor' ? !cursor : posts.length < 2) return titles;
  }
  throw new Error('the feed never ended');
}

describe('normaliseTags (contract)', () => {
  it('lower-cases, drops one leading #, merges duplicates and keeps the order', () => {
    expect(normaliseTags(['#JavaScript', 'go', 'javascript', ' Rust-Lang '])).toEqual({
      ok: true,
      tags: ['javascript', 'go', 'rust-lang'],
    });
  });

  it('names the bad tag and refuses a fifth', () => {
    expect(normaliseTags(['ok', 'no way'])).toEqual({ ok: false, error: expect.stringContaining('"no way"') });
    expect(normaliseTags(['-dash'])).toEqual({ ok: false, error: expect.stringContaining('"-dash"') });
    expect(normaliseTags(['a'.repeat(31)])).toMatchObject({ ok: false });
    expect(normaliseTags(['a'.repeat(30)])).toMatchObject({ ok: true });
    expect(normaliseTags(['a', 'b', 'c', 'd', 'e'])).toEqual({ ok: false, error: 'A post can have at most 4 tags' });
    expect(normaliseTags(['a', 'b', 'c', 'd', 'A', '#b'])).toMatchObject({ ok: true, tags: ['a', 'b', 'c', 'd'] });
  });
});

describe('tags on posts', () => {
  it('stores normalised tags on create and carries them in every reply shape', async () => {
    await fresh();
    const alice = await createUser(t);
    const post = await createPost(t, alice, { tags: ['#Go', 'web-dev', 'GO'] });
    expect(post.tags).toEqual(['go', 'web-dev']);
    const untagged = await createPost(t, alice);
    expect(untagged.tags).toEqual([]);

    for (const view of ['full', 'compact']) {
      const single = await t.http.get(`/api/posts/${post._id}?view=${view}`).expect(200);
      expect(single.body.post.tags).toEqual(['go', 'web-dev']);
      const list = await feed({ view }).expect(200);
      expect((list.body.posts as Post[]).map((p) => p.tags)).toEqual([[], ['go', 'web-dev']]);
      const mine = await t.http.get(`/api/userposts/${alice.id}?view=${view}`).expect(200);
      expect((mine.body.userPosts as Post[]).map((p) => p.tags)).toEqual([[], ['go', 'web-dev']]);
    }
    const commented = await t.http
      .put('/api/comment')
      .set('Authorization', alice.auth)
      .send({ postId: post._id, text: 'hi' })
      .expect(200);
    expect(commented.body.tags).toEqual(['go', 'web-dev']);
    const deleted = await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', alice.auth).expect(200);
    expect(deleted.body.tags).toEqual(['go', 'web-dev']);
    expect(await tagOf(null, 'go')).toEqual({
      name: 'go',
      postsCount: 0,
      followersCount: 0,
      following: false,
      muted: false,
    });
  });

  it.each([
    [['a', 'b', 'c', 'd', 'e'], /at most 4 tags/],
    [['fine', 'bad tag'], /"bad tag"/],
    [['a'.repeat(31)], /"a{31}"/],
    [['#'], /"#"/],
    [['under_score'], /"under_score"/],
    [['ünï'], /"ünï"/],
    ['go,web', /list of texts/],
    [[1, 2], /list of texts/],
    [[null], /list of texts/],
  ])('refuses tags %j with 400 naming the problem and changes nothing', async (tags, error) => {
    await fresh();
    const user = await createUser(t);
    await expectRejected(
      () => t.http.post('/api/createpost').set('Authorization', user.auth).send({ title: 'T', desc: 'D', tags }),
      400,
      error,
    );
    const post = await createPost(t, user, { tags: ['kept'] });
    await expectRejected(
      () =>
        t.http
          .put(`/api/editpost/${post._id}`)
          .set('Authorization', user.auth)
          .send({ title: 'T', desc: 'D', category: 'Doubt', tags }),
      400,
      error,
    );
  });

  it('edits tags: missing keeps them, [] clears them, counts follow, and the revision records the change', async () => {
    await fresh();
    const alice = await createUser(t);
    const post = await createPost(t, alice, { tags: ['one', 'two'] });
    const edit = (body: Record<string, unknown>) =>
      t.http
        .put(`/api/editpost/${post._id}`)
        .set('Authorization', alice.auth)
        .send({ title: post.title, desc: post.desc, category: 'Doubt', ...body })
        .expect(200);
    expect((await edit({})).body.tags).toEqual(['one', 'two']);
    expect((await edit({ tags: ['Two', 'three'] })).body.tags).toEqual(['two', 'three']);
    expect((await tagOf(null, 'one')).postsCount).toBe(0);
    expect((await tagOf(null, 'two')).postsCount).toBe(1);
    expect((await tagOf(null, 'three')).postsCount).toBe(1);
    expect((await edit({ tags: [] })).body.tags).toEqual([]);
    expect((await tagOf(null, 'two')).postsCount).toBe(0);
    const revisions = await t.http.get(`/api/posts/${post._id}/revisions`).set('Authorization', alice.auth).expect(200);
    expect(revisions.body.revisions.map((r: { changes: object }) => r.changes)).toEqual([
      { tags: { from: 'two,three', to: '' } },
      { tags: { from: 'one,two', to: 'two,three' } },
      { category: { from: '', to: 'Doubt' } },
    ]);
  });
});

describe('GET /api/tags and /api/tags/:name', () => {
  it('suggests used tags by prefix, most-used first, with the limit', async () => {
    await fresh();
    const alice = await createUser(t);
    await createPost(t, alice, { tags: ['java', 'javascript'] });
    await createPost(t, alice, { tags: ['javascript', 'jakarta'] });
    await createPost(t, alice, { tags: ['javascript', 'rust'] });
    await createPost(t, alice, { tags: ['java'] });
    const names = async (query: string) =>
      ((await t.http.get(`/api/tags${query}`).expect(200)).body.tags as Tag[]).map((tag) => tag.name);
    expect(await names('?prefix=ja')).toEqual(['javascript', 'java', 'jakarta']);
    expect(await names('?prefix=%23JA&limit=2')).toEqual(['javascript', 'java']);
    expect(await names('?prefix=java')).toEqual(['javascript', 'java']);
    expect(await names('?prefix=x')).toEqual([]);
    expect(await names('')).toEqual(['javascript', 'java', 'jakarta', 'rust']);
    await expectRejected(() => t.http.get('/api/tags?limit=0'), 400);
    await expectRejected(() => t.http.get('/api/tags?limit=51'), 400);
    await expectRejected(() => t.http.get('/api/tags?prefix=a%25'), 400);
  });

  it('answers zeros for a valid tag nobody used and 400 for an invalid name', async () => {
    await fresh();
    expect(await tagOf(null, 'Nobody-Yet')).toEqual({
      name: 'nobody-yet',
      postsCount: 0,
      followersCount: 0,
      following: false,
      muted: false,
    });
    await expectRejected(() => t.http.get('/api/tags/bad_name'), 400);
    await expectRejected(() => t.http.get(`/api/tags/${'a'.repeat(31)}`), 400);
  });

  it('follows and mutes idempotently, one excluding the other, with the followers count', async () => {
    await fresh();
    const alice = await createUser(t);
    const bob = await createUser(t);
    const expectTag = async (response: PromiseLike<Response>, tag: Partial<Tag>) =>
      expect((await response).body).toEqual({ tag: expect.objectContaining(tag) });
    await expectTag(pref(alice, 'go', 'follow').expect(200), { name: 'go', following: true, followersCount: 1 });
    await expectTag(pref(alice, 'go', 'follow').expect(200), { following: true, muted: false, followersCount: 1 });
    await expectTag(pref(bob, 'go', 'follow').expect(200), { followersCount: 2 });
    await expectTag(pref(alice, 'go', 'mute').expect(200), { following: false, muted: true, followersCount: 1 });
    await expectTag(pref(alice, 'go', 'mute').expect(200), { muted: true, followersCount: 1 });
    await expectTag(pref(alice, 'go', 'unfollow').expect(200), { muted: true, following: false });
    await expectTag(pref(alice, 'go', 'follow').expect(200), { muted: false, following: true, followersCount: 2 });
    await expectTag(pref(alice, 'go', 'unfollow').expect(200), { following: false, followersCount: 1 });
    await expectTag(pref(alice, 'go', 'unfollow').expect(200), { following: false, followersCount: 1 });
    await expectTag(pref(alice, 'go', 'unmute').expect(200), { muted: false, following: false });
    expect(await tagOf(bob, 'go')).toEqual({
      name: 'go',
      postsCount: 0,
      followersCount: 1,
      following: true,
      muted: false,
    });
    expect(await tagOf(null, 'go')).toMatchObject({ following: false, muted: false });
    await expectRejected(() => t.http.put('/api/tags/go/follow'), 401);
    await expectRejected(() => pref(alice, 'Bad_Tag', 'follow'), 400);
  });
});

describe('tag feeds and mutes', () => {
  it('feed=tag and feed=tags page by page and by cursor, each post once, newest first', async () => {
    await fresh();
    const alice = await createUser(t);
    const reader = await createUser(t);
    for (const [title, tags] of [
      ['p1', ['go', 'web']],
      ['p2', ['rust']],
      ['p3', ['web']],
      ['p4', ['go']],
      ['p5', []],
      ['p6', ['go', 'web', 'rust']],
    ] as const)
      await createPost(t, alice, { title, tags });
    expect(await feedTitles({ feed: 'tag', tag: '#GO' })).toEqual(['p6', 'p4', 'p1']);
    await pref(reader, 'go', 'follow').expect(200);
    await pref(reader, 'web', 'follow').expect(200);
    for (const by of ['cursor', 'page'] as const) {
      expect(await walk({ feed: 'tags' }, reader, by)).toEqual(['p6', 'p4', 'p3', 'p1']);
      expect(await walk({ feed: 'tag', tag: 'web' }, reader, by)).toEqual(['p6', 'p3', 'p1']);
    }
    await expectRejected(() => feed({ feed: 'tags' }), 400, /Log in/);
    await expectRejected(() => feed({ feed: 'tag' }), 400);
    await expectRejected(() => feed({ feed: 'tag', tag: 'no way' }), 400);
  });

  it('feed=tags for a reader following more than 50 tags (the newest-posts walk) pages each post once, muted ones out', async () => {
    await fresh();
    const alice = await createUser(t);
    const reader = await createUser(t);
    for (const [title, tags] of [
      ['a', ['t0', 't50']],
      ['b', ['other']],
      ['c', ['t7']],
      ['d', ['t9', 'noise']],
      ['e', ['t50', 't3', 't1']],
    ] as const)
      await createPost(t, alice, { title, tags });
    for (let n = 0; n <= 50; n++) await pref(reader, `t${n}`, 'follow').expect(200);
    await pref(reader, 'noise', 'mute').expect(200);
    for (const by of ['cursor', 'page'] as const) {
      expect(await walk({ feed: 'tags' }, reader, by)).toEqual(['e', 'c', 'a']);
    }
    // One fewer followed tag: the merge of per-tag pages answers the same.
    await pref(reader, 't50', 'unfollow').expect(200);
    for (const by of ['cursor', 'page'] as const) {
      expect(await walk({ feed: 'tags' }, reader, by)).toEqual(['e', 'c', 'a']);
    }
  });

  it("leaves a muted tag's posts out of every feed and the top posts for that reader only", async () => {
    await fresh();
    const alice = await createUser(t);
    const reader = await createUser(t);
    const other = await createUser(t);
    await t.http.put('/api/follow').set('Authorization', reader.auth).send({ followId: alice.id }).expect(200);
    const muted = await createPost(t, alice, { title: 'muted', tags: ['noise', 'go'] });
    await createPost(t, alice, { title: 'kept', tags: ['go'] });
    await createPost(t, alice, { title: 'plain' });
    await t.http.put('/api/like').set('Authorization', other.auth).send({ postId: muted._id }).expect(200);
    await pref(reader, 'go', 'follow').expect(200);
    await pref(reader, 'noise', 'mute').expect(200);

    expect(await feedTitles({}, reader)).toEqual(['plain', 'kept']);
    expect(await feedTitles({ feed: 'following' }, reader)).toEqual(['plain', 'kept']);
    expect(await feedTitles({ feed: 'tags' }, reader)).toEqual(['kept']);
    expect(await feedTitles({ feed: 'tag', tag: 'go' }, reader)).toEqual(['kept']);
    // The muted tag's own page shows it: that is what opening it asks for.
    expect(await feedTitles({ feed: 'tag', tag: 'noise' }, reader)).toEqual(['muted']);
    // A profile is not a feed: the author's posts stay whole.
    const profile = await t.http.get(`/api/userposts/${alice.id}`).set('Authorization', reader.auth).expect(200);
    expect((profile.body.userPosts as Post[]).map((post) => post.title)).toEqual(['plain', 'kept', 'muted']);
    const top = async (user: TestUser | null) =>
      (
        (
          await (
            user ? t.http.get('/api/top-posts').set('Authorization', user.auth) : t.http.get('/api/top-posts')
          ).expect(200)
        ).body.posts as { title: string }[]
      ).map((post) => post.title);
    expect(await top(reader)).not.toContain('muted');
    expect(await top(other)).toContain('muted');
    expect(await top(null)).toEqual(['muted', 'plain', 'kept']);
    expect(await feedTitles({}, other)).toEqual(['plain', 'kept', 'muted']);
    expect(await feedTitles({})).toEqual(['plain', 'kept', 'muted']);

    await pref(reader, 'noise', 'unmute').expect(200);
    expect(await feedTitles({}, reader)).toEqual(['plain', 'kept', 'muted']);
  });

  it("with the read cache on, one reader's mute is never served to another reader or a visitor", async () => {
    await fresh({ READ_CACHE_TTL_MS: '60000' });
    const alice = await createUser(t);
    const reader = await createUser(t);
    const other = await createUser(t);
    await createPost(t, alice, { title: 'noisy', tags: ['noise'] });
    await pref(reader, 'noise', 'mute').expect(200);
    for (let round = 0; round < 2; round++) {
      expect(await feedTitles({}, reader)).toEqual([]);
      expect(await feedTitles({})).toEqual(['noisy']);
      expect(await feedTitles({}, other)).toEqual(['noisy']);
      expect(await tagOf(reader, 'noise')).toMatchObject({ muted: true });
      expect(await tagOf(null, 'noise')).toMatchObject({ muted: false });
      expect(await tagOf(other, 'noise')).toMatchObject({ muted: false });
    }
  });
});

describe('GET /api/top-posts?window=', () => {
  it('keeps the seed default (all time, 5 posts) and limits a window to posts that recent', async () => {
    await fresh();
    const alice = await createUser(t);
    const fan = await createUser(t);
    const posts: Post[] = [];
    for (let i = 0; i < 6; i++) posts.push(await createPost(t, alice, { title: `t${i}` }));
    // t0 is the best loved (2 likes) but 40 days old: in "all" and the default only.
    await t.db
      .updateTable('posts')
      .set({ created_at: new Date(Date.now() - 40 * 86400_000).toISOString() })
      .where('id', '=', posts[0]._id)
      .execute();
    await t.db
      .updateTable('posts')
      .set({ created_at: new Date(Date.now() - 3 * 86400_000).toISOString() })
      .where('id', '=', posts[1]._id)
      .execute();
    await t.http.put('/api/like').set('Authorization', alice.auth).send({ postId: posts[0]._id }).expect(200);
    for (const index of [0, 1])
      await t.http.put('/api/like').set('Authorization', fan.auth).send({ postId: posts[index]._id }).expect(200);
    const titles = async (query: string) =>
      ((await t.http.get(`/api/top-posts${query}`).expect(200)).body.posts as { title: string }[]).map((p) => p.title);
    const all = await titles('');
    expect(all).toHaveLength(5);
    expect(all.slice(0, 2)).toEqual(['t0', 't1']);
    expect(await titles('?window=all')).toEqual(all);
    expect((await titles('?window=month'))[0]).toBe('t1');
    expect(await titles('?window=week')).not.toContain('t0');
    expect(await titles('?window=day')).not.toContain('t1');
    await expectRejected(() => t.http.get('/api/top-posts?window=year'), 400, /window must be one of/);
  });
});
