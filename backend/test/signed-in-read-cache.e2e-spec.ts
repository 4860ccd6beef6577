import type { Post } from '@techit/contract/api-types';
import request from 'supertest';
import { createPost, createUser, makeModerator, type TestUser } from './support/factories';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { createServerData, type ServerData } from './support/server-process';
import { startTestAppOn, type TestApp } from './support/test-app';

/**
 * Signed-in members' reads from memory (docs/decisions/053-signed-in-read-cache.md): a member's
 * reply is a shared one plus their own likes and bookmarks. What a member reads must be, byte
 * for byte, what Nest builds for them; never another reader's state; never older than their own
 * last write, on one instance and on several behind a balancer (REDIS_URL).
 */

jest.setTimeout(120_000);

/**
 * A reply from memory runs at most one statement (the account and the reader's state), none
 * when nothing was written since that reader's last one.
 */
const FROM_MEMORY_STATEMENTS = 1;

interface Instance {
  app: TestApp;
  statements: number;
}

async function instanceOn(data: ServerData, settings: Record<string, string>): Promise<Instance> {
  const instance: Instance = { app: undefined as unknown as TestApp, statements: 0 };
  instance.app = await startTestAppOn(data, settings, () => (instance.statements += 1));
  return instance;
}

async function read(instance: Instance, path: string, reader?: TestUser) {
  instance.statements = 0;
  let call = request(instance.app.app.getHttpServer()).get(path);
  if (reader) call = call.set('Authorization', reader.auth);
  const response = await call;
  expect(response.status).toBe(200);
  return { text: response.text, etag: response.headers.etag, statements: instance.statements };
}

/**
 * The statements of a read once it comes from memory. A write's reply reaches the client just
 * before the server's onResponse hook empties the cache again, so a read sent at once may be
 * built in full and not kept: read again (a few times at most) until the reply is kept.
 */
async function fromMemory(instance: Instance, path: string, reader: TestUser): Promise<number> {
  let statements = 0;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    statements = (await read(instance, path, reader)).statements;
    if (statements <= FROM_MEMORY_STATEMENTS) return FROM_MEMORY_STATEMENTS;
  }
  return statements;
}

describe('the signed-in read cache on one instance', () => {
  let data: ServerData;
  let cached: Instance;
  /** The same database with the cache off: every reply built by Nest, the reference. */
  let fresh: Instance;
  let author: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let muter: TestUser;
  let moderator: TestUser;
  let posts: Post[];
  const tag = 'cachedtag';

  beforeAll(async () => {
    data = await createServerData();
    // In this order: Passport keeps one 'jwt' strategy per process, the last app's, and a member's
    // read comes from memory only once that app's strategy has verified their token.
    fresh = await instanceOn(data, { READ_CACHE_TTL_MS: '0' });
    cached = await instanceOn(data, { READ_CACHE_TTL_MS: '60000' });
    const t = cached.app;
    [author, alice, bob, muter, moderator] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    await makeModerator(t, moderator);
    posts = [];
    for (let index = 0; index < 5; index += 1) {
      posts.push(
        await createPost(t, author, { tags: [tag], body: `# Post ${index}\n\n\`\`\`js\nlet x = ${index};\n\`\`\`` }),
      );
    }
    const put = (path: string, user: TestUser, body: object) =>
      t.http.put(path).set('Authorization', user.auth).send(body).expect(200);
    await put('/api/like', alice, { postId: posts[0]._id });
    await put('/api/like', bob, { postId: posts[1]._id });
    await put('/api/bookmark', alice, { postId: posts[1]._id });
    await put('/api/comment', bob, { postId: posts[0]._id, text: 'first!' });
    await put('/api/follow', alice, { followId: author.id });
    await put('/api/follow', bob, { followId: author.id });
    await put('/api/mute', muter, { userId: bob.id });
  });

  afterAll(async () => {
    await cached?.app.close();
    await fresh?.app.close();
    await data?.remove();
  });

  const paths = () => [
    '/api/posts?view=compact&limit=4',
    '/api/posts?limit=4',
    '/api/posts?feed=hot&view=compact',
    `/api/posts?feed=tag&tag=${tag}&view=compact`,
    '/api/posts?feed=following&view=compact',
    `/api/posts/${posts[0]._id}?view=compact`,
    `/api/posts/${posts[1]._id}`,
    `/api/posts/${posts[0]._id}/comments`,
    '/api/top-posts',
    `/api/userposts/${author.id}?view=compact`,
    `/api/user/${author.id}`,
    `/api/user/${alice.id}`,
  ];

  it("gives each member, from memory, exactly the reply Nest builds for them (a visitor's read first)", async () => {
    for (const path of paths()) {
      if (!path.includes('following')) await read(cached, path);
      for (const reader of [alice, bob]) {
        const expected = await read(fresh, path, reader);
        const mine = await read(cached, path, reader);
        expect({ path, reader: reader.userName, text: mine.text }).toEqual({
          path,
          reader: reader.userName,
          text: expected.text,
        });
        expect(mine.etag).toBe(expected.etag);
        if (!path.includes('following'))
          expect({ path, statements: await fromMemory(cached, path, reader) }).toEqual({
            path,
            statements: FROM_MEMORY_STATEMENTS,
          });
      }
    }
  });

  it("shares a member's reply with the next member without the first one's likes and bookmarks", async () => {
    await cached.app.http.put('/api/like').set('Authorization', author.auth).send({ postId: posts[2]._id }).expect(200);
    for (const path of paths()) {
      const first = await read(cached, path, alice);
      expect(first.text).toBe((await read(fresh, path, alice)).text);
      const second = await read(cached, path, bob);
      expect({ path, text: second.text }).toEqual({ path, text: (await read(fresh, path, bob)).text });
      if (!path.includes('following'))
        expect({ path, statements: await fromMemory(cached, path, bob) }).toEqual({
          path,
          statements: FROM_MEMORY_STATEMENTS,
        });
      // A visitor's own copy never carries a member's state either (the following feed needs a reader).
      if (path.includes('following')) continue;
      expect({ path, text: (await read(cached, path)).text }).toEqual({ path, text: (await read(fresh, path)).text });
    }
  });

  it('answers a member 304 from memory when they have their own copy, and 200 when their like changed it', async () => {
    const path = `/api/posts/${posts[2]._id}?view=compact`;
    const mine = await read(cached, path, bob);
    const again = await request(cached.app.app.getHttpServer())
      .get(path)
      .set('Authorization', bob.auth)
      .set('If-None-Match', mine.etag);
    expect(again.status).toBe(304);
    await cached.app.http.put('/api/like').set('Authorization', bob.auth).send({ postId: posts[2]._id }).expect(200);
    const changed = await request(cached.app.app.getHttpServer())
      .get(path)
      .set('Authorization', bob.auth)
      .set('If-None-Match', mine.etag);
    expect(changed.status).toBe(200);
    expect((changed.body as { post: Post }).post.likes).toEqual([bob.id]);
  });

  it('builds in full the replies of readers with filters, of moderators, and of anything removed', async () => {
    const removed = posts[3];
    const comment = await cached.app.http
      .put('/api/comment')
      .set('Authorization', alice.auth)
      .send({ postId: removed._id, text: 'to be removed' })
      .expect(200);
    const commentId = (comment.body as Post).comments[0]._id;
    await cached.app.http
      .post('/api/reports')
      .set('Authorization', bob.auth)
      .send({ targetKind: 'comment', targetId: commentId, reason: 'spam' })
      .expect(201);
    await cached.app.http
      .put(`/api/reports/comment/${commentId}/resolve`)
      .set('Authorization', moderator.auth)
      .send({ action: 'remove', reason: 'spam' })
      .expect(200);
    for (const path of [...paths(), `/api/posts/${removed._id}?view=compact`, `/api/posts/${removed._id}/comments`]) {
      if (!path.includes('following')) await read(cached, path);
      for (const reader of [muter, moderator, alice, bob]) {
        await read(cached, path, reader);
        const mine = await read(cached, path, reader);
        expect({ path, reader: reader.userName, text: mine.text }).toEqual({
          path,
          reader: reader.userName,
          text: (await read(fresh, path, reader)).text,
        });
      }
    }
    // A reader who mutes reads their own kept replies (from memory the second time); moderators' are built.
    for (const path of [
      `/api/posts?view=compact&limit=1`,
      `/api/posts/${posts[0]._id}/comments`,
      `/api/user/${bob.id}`,
    ]) {
      expect({ path, statements: await fromMemory(cached, path, muter) }).toEqual({
        path,
        statements: FROM_MEMORY_STATEMENTS,
      });
    }
    await read(cached, '/api/posts?view=compact&limit=4', moderator);
    expect((await read(cached, '/api/posts?view=compact&limit=4', moderator)).statements).toBeGreaterThan(1);
    // The muter's conversation flags Bob's comment; the author of the removed comment reads it whole.
    expect((await read(cached, `/api/posts/${posts[0]._id}/comments`, muter)).text).toContain('"muted":true');
    expect((await read(cached, `/api/posts/${removed._id}/comments`, alice)).text).toContain('to be removed');
    expect((await read(cached, `/api/posts/${removed._id}/comments`, bob)).text).not.toContain('to be removed');
  });

  it('shows a member their own write at once: like, bookmark, comment, post, mute, unfollow', async () => {
    const feed = '/api/posts?view=compact&limit=4';
    const following = '/api/posts?feed=following&view=compact';
    const same = async (path: string) => {
      const mine = await read(cached, path, alice);
      expect({ path, text: mine.text }).toEqual({ path, text: (await read(fresh, path, alice)).text });
      return JSON.parse(mine.text) as { posts: Post[] };
    };
    const put = (path: string, body: object) =>
      cached.app.http.put(path).set('Authorization', alice.auth).send(body).expect(200);
    const target = posts[4]._id;
    const postIn = (reply: { posts: Post[] }) => reply.posts.find((post) => post._id === target);
    await same(feed);
    await same(following);

    await put('/api/like', { postId: target });
    expect(postIn(await same(feed))).toMatchObject({ likes: [alice.id], likesCount: 1 });
    await put('/api/bookmark', { postId: target });
    expect(postIn(await same(feed))).toMatchObject({ bookmarked: true });
    expect(postIn(await same(following))).toMatchObject({ bookmarked: true, likesCount: 1 });
    await put('/api/comment', { postId: target, text: 'mine' });
    expect(postIn(await same(feed))).toMatchObject({ commentsCount: 1 });
    const own = await createPost(cached.app, alice, { title: 'Alice writes' });
    expect((await same(feed)).posts[0]._id).toBe(own._id);
    await put('/api/unbookmark', { postId: target });
    expect(postIn(await same(feed))).toMatchObject({ bookmarked: false });
    await put('/api/mute', { userId: author.id });
    expect((await same(feed)).posts.some((post) => post.postedBy._id === author.id)).toBe(false);
    await put('/api/unmute', { userId: author.id });
    expect(postIn(await same(feed))).toMatchObject({ likes: [alice.id] });
    const bobsProfile = `/api/user/${bob.id}`;
    await same(bobsProfile);
    await put('/api/block', { userId: bob.id });
    expect((await same(bobsProfile)) as unknown).toMatchObject({ viewer: { blocks: true, mutes: false } });
    await put('/api/unblock', { userId: bob.id });
    expect((await same(bobsProfile)) as unknown).toMatchObject({ viewer: { blocks: false, mutes: false } });
    await put('/api/unfollow', { unfollowId: author.id });
    expect((await same(following)).posts).toEqual([]);
    // Signed out everywhere: the old token reads as a visitor's at once (the routes take no token as a visitor).
    await cached.app.http.post('/api/logout-all').set('Authorization', alice.auth).expect(200);
    const old = await read(cached, feed, alice);
    expect(old.text).toBe((await read(fresh, feed)).text);
    expect(old.text).not.toContain(`"likes":["${alice.id}"]`);
  });
});

describe('the signed-in read cache on two instances behind a balancer (REDIS_URL)', () => {
  let redis: RedisServer;
  let data: ServerData;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    redis = await startRedisServer();
    data = await createServerData();
    const settings = { READ_CACHE_TTL_MS: '60000', REDIS_URL: redis.url };
    // One after the other: both migrate the same database. A last: see the first suite's beforeAll.
    b = await instanceOn(data, settings);
    a = await instanceOn(data, settings);
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await data?.remove();
    await redis?.stop();
  });

  it("serves a member's read on one instance no older than their write on the other", async () => {
    const [author, writer, other] = [await createUser(a.app), await createUser(a.app), await createUser(a.app)];
    const post = await createPost(a.app, author);
    const path = '/api/posts?view=compact&limit=4';
    for (const reader of [writer, other]) expect(await fromMemory(a, path, reader)).toBe(FROM_MEMORY_STATEMENTS);
    await b.app.http.put('/api/like').set('Authorization', writer.auth).send({ postId: post._id }).expect(200);
    await b.app.http
      .put('/api/comment')
      .set('Authorization', writer.auth)
      .send({ postId: post._id, text: 'hi' })
      .expect(200);
    const mine = JSON.parse((await read(a, path, writer)).text) as { posts: Post[] };
    expect(mine.posts.find((item) => item._id === post._id)).toMatchObject({
      likes: [writer.id],
      likesCount: 1,
      commentsCount: 1,
    });
    // Another member's page may stay as instance A cached it (READ_CACHE_TTL_MS), as a visitor's does.
    expect((await read(a, path, other)).statements).toBeLessThanOrEqual(FROM_MEMORY_STATEMENTS);
  });
});
