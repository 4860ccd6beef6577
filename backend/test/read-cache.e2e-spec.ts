import { CATEGORIES } from '@techit/contract/enums';
import type { Post } from '@techit/contract/api-types';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Visitors' reads come from memory (READ_CACHE_TTL_MS), but never stale after a write through
 * the API: each kind of write below must show at once in the reads it affects.
 */
describe('the read cache for visitors', () => {
  let t: TestApp;
  let statements = 0;
  let author: TestUser;
  let reader: TestUser;
  let post: Post;

  beforeAll(async () => {
    t = await startTestApp({ READ_CACHE_TTL_MS: '60000' }, () => (statements += 1));
    author = await createUser(t);
    reader = await createUser(t);
    post = await createPost(t, author, { title: 'Cached' });
  });

  afterAll(() => t.close());

  async function read(path: string, headers: Record<string, string> = {}) {
    statements = 0;
    let request = t.http.get(path);
    for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
    const response = await request;
    return { response, statements };
  }

  it('answers a repeated read from memory, with the same body and ETag and no SQL', async () => {
    const first = await read('/api/posts?limit=4');
    expect(first.statements).toBeGreaterThan(0);
    const second = await read('/api/posts?limit=4');
    expect(second.statements).toBe(0);
    expect(second.response.status).toBe(200);
    expect(second.response.body).toEqual(first.response.body);
    expect(second.response.headers.etag).toBe(first.response.headers.etag);
    expect(second.response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('builds a reply once for the readers who miss it together, visitors and members alike', async () => {
    const one = await read('/api/posts?limit=2');
    await read('/api/posts?limit=2', { Authorization: reader.auth }); // the member's token is known now
    statements = 0;
    // Dispatched at once in this process (supertest would open a connection for each, one by one).
    const fastify = t.app.getHttpAdapter().getInstance();
    const together = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        fastify.inject({
          method: 'GET',
          url: '/api/posts?limit=3',
          headers: index % 2 === 0 ? {} : { authorization: reader.auth },
        }),
      ),
    );
    expect(together.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    // One build, plus at most one statement per member request (their account and state): 4.
    expect(statements).toBeLessThanOrEqual(one.statements + 4);
  });

  it('answers 304 from memory to a client that has the version', async () => {
    const first = await read(`/api/posts/${post._id}`);
    const again = await read(`/api/posts/${post._id}`, { 'If-None-Match': first.response.headers.etag });
    expect(again.response.status).toBe(304);
    expect(again.statements).toBe(0);
  });

  it("never gives a visitor a member's likes, nor a member a visitor's copy without theirs (compact marks them)", async () => {
    await t.http.put('/api/like').set('Authorization', reader.auth).send({ postId: post._id }).expect(200);
    await read(`/api/posts/${post._id}?view=compact`); // a visitor's copy is kept
    const mine = await read(`/api/posts/${post._id}?view=compact`, { Authorization: reader.auth });
    expect(mine.statements).toBeGreaterThan(0);
    expect(mine.response.body.post.likes).toEqual([reader.id]);
    const visitor = await read(`/api/posts/${post._id}?view=compact`);
    expect(visitor.response.body.post.likes).toEqual([]);
    expect(visitor.statements).toBe(0);
  });

  it.each([
    ['a post', () => `/api/posts/${post._id}`, (body: { post: Post }) => body.post],
    ['a feed', () => '/api/posts?limit=4', (body: { posts: Post[] }) => body.posts.find((p) => p._id === post._id)!],
    [
      "a user's posts",
      () => `/api/userposts/${author.id}`,
      (body: { userPosts: Post[] }) => body.userPosts.find((p) => p._id === post._id)!,
    ],
  ])('keeps the full and the compact view of %s apart, each with its own ETag', async (_name, path, postOf) => {
    const liker = await createUser(t);
    await t.http.put('/api/like').set('Authorization', liker.auth).send({ postId: post._id }).expect(200);
    const compactPath = `${path()}${path().includes('?') ? '&' : '?'}view=compact`;
    const full = await read(path());
    const compact = await read(compactPath);
    expect(compact.statements).toBeGreaterThan(0); // not the full reply from memory
    expect(postOf(full.response.body as never).likes).toContain(liker.id);
    expect(postOf(compact.response.body as never).likes).toEqual([]);
    expect(compact.response.headers.etag).not.toBe(full.response.headers.etag);
    for (const [kept, first] of [
      [path(), full],
      [compactPath, compact],
    ] as const) {
      const again = await read(kept);
      expect({ kept, statements: again.statements, body: again.response.body }).toEqual({
        kept,
        statements: 0,
        body: first.response.body,
      });
      const revalidated = await read(kept, { 'If-None-Match': String(first.response.headers.etag) });
      expect(revalidated.response.status).toBe(304);
    }
    const crossed = await read(compactPath, { 'If-None-Match': String(full.response.headers.etag) });
    expect(crossed.response.status).toBe(200);
  });

  it("never shows a reader's bookmark to a visitor or another reader, and a bookmark keeps visitors' copies (it changes none of their bytes)", async () => {
    const other = await createUser(t);
    const paths = [`/api/posts/${post._id}?view=compact`, `/api/posts/${post._id}`, '/api/posts?limit=4&view=compact'];
    const visitorBodies = [];
    for (const path of paths) visitorBodies.push((await read(path)).response.body); // kept
    await t.http.put('/api/bookmark').set('Authorization', reader.auth).send({ postId: post._id }).expect(200);
    const mine = await read(`/api/posts/${post._id}?view=compact`, { Authorization: reader.auth });
    expect(mine.response.body.post.bookmarked).toBe(true);
    const theirs = await read(`/api/posts/${post._id}?view=compact`, { Authorization: other.auth });
    expect(theirs.response.body.post.bookmarked).toBe(false);
    for (const [index, path] of paths.entries()) {
      const visitor = await read(path);
      // Still from memory, and the very bytes a visitor had: bookmarked is false there.
      expect({ path, statements: visitor.statements, body: visitor.response.body }).toEqual({
        path,
        statements: 0,
        body: visitorBodies[index],
      });
      expect(JSON.stringify(visitor.response.body)).not.toContain('"bookmarked":true');
    }
    await t.http.put('/api/unbookmark').set('Authorization', reader.auth).send({ postId: post._id }).expect(200);
    expect((await read(paths[0])).statements).toBe(0);
  });

  it("never shows a reader's mute to a visitor, and a mute, unmute or unblock keeps visitors' copies (decision 048)", async () => {
    const muted = await createUser(t);
    await t.http
      .put('/api/comment')
      .set('Authorization', muted.auth)
      .send({ postId: post._id, text: 'from the muted one' })
      .expect(200);
    const paths = [
      `/api/posts/${post._id}`,
      `/api/posts/${post._id}/comments`,
      '/api/posts?limit=4',
      '/api/allnotices',
    ];
    const visitorBodies = [];
    for (const path of paths) visitorBodies.push((await read(path)).response.body); // kept
    for (const path of ['/api/mute', '/api/block', '/api/unblock'])
      await t.http.put(path).set('Authorization', reader.auth).send({ userId: muted.id }).expect(200);
    // The block emptied the cache (it ends follows, which profiles show): read the copies again.
    for (const path of paths) expect((await read(path)).response.body).toEqual(visitorBodies[paths.indexOf(path)]);
    const mine = await read(`/api/posts/${post._id}/comments`, { Authorization: reader.auth });
    expect(JSON.stringify(mine.response.body)).toContain('"muted":true');
    await t.http.put('/api/unmute').set('Authorization', reader.auth).send({ userId: muted.id }).expect(200);
    await t.http.put('/api/mute').set('Authorization', reader.auth).send({ userId: muted.id }).expect(200);
    for (const [index, path] of paths.entries()) {
      const visitor = await read(path);
      // Still from memory after the mute and unmute, and the very bytes a visitor had.
      expect({ path, statements: visitor.statements, body: visitor.response.body }).toEqual({
        path,
        statements: 0,
        body: visitorBodies[index],
      });
      expect(JSON.stringify(visitor.response.body)).not.toContain('"muted"');
    }
  });

  it("never shows a reader's viewer field of a profile to a visitor, nor a visitor's copy to a reader (decision 048)", async () => {
    const other = await createUser(t);
    await t.http.put('/api/mute').set('Authorization', reader.auth).send({ userId: other.id }).expect(200);
    const path = `/api/user/${other.id}`;
    const visitorBody = (await read(path)).response.body; // kept
    expect(visitorBody.viewer).toBeUndefined();
    const mine = await read(path, { Authorization: reader.auth });
    expect(mine.statements).toBeGreaterThan(0); // not the visitor's copy
    expect(mine.response.body.viewer).toEqual({ blocks: false, mutes: true });
    const visitor = await read(path);
    expect({ statements: visitor.statements, body: visitor.response.body }).toEqual({
      statements: 0,
      body: visitorBody,
    });
    // A reader who asked first leaves nothing of theirs for the next visitor either.
    const another = await createUser(t);
    await t.http.put('/api/mute').set('Authorization', reader.auth).send({ userId: another.id }).expect(200);
    await read(`/api/user/${another.id}`, { Authorization: reader.auth });
    expect((await read(`/api/user/${another.id}`)).response.body.viewer).toBeUndefined();
  });

  it('keeps neither errors nor the health check', async () => {
    expect((await read('/api/user/0123456789abcdef01234567')).response.status).toBe(404);
    expect((await read('/api/user/0123456789abcdef01234567')).statements).toBeGreaterThan(0);
    await read('/api/health');
    expect((await read('/api/health')).statements).toBeGreaterThan(0);
  });

  let doomed: Post;
  let liker: TestUser;
  /** A member who has not liked the post yet likes it. */
  const someoneNewLikes = {
    setup: async () => {
      liker = await createUser(t);
    },
    write: () => t.http.put('/api/like').set('Authorization', liker.auth).send({ postId: post._id }).expect(200),
  };
  const writes: {
    name: string;
    read: () => string;
    setup?: () => Promise<void>;
    write: () => Promise<unknown>;
    changed: (body: never) => unknown;
  }[] = [
    {
      name: 'a like',
      read: () => `/api/posts/${post._id}`,
      write: () => t.http.put('/api/like').set('Authorization', author.auth).send({ postId: post._id }).expect(200),
      changed: (body: { post: Post }) => body.post.likesCount,
    },
    {
      name: "someone else's like, in the full view of a feed (every liker is listed)",
      read: () => '/api/posts?limit=4',
      ...someoneNewLikes,
      changed: (body: { posts: Post[] }) => body.posts.map((p) => p.likes),
    },
    {
      name: "someone else's like, in the full view of a post",
      read: () => `/api/posts/${post._id}`,
      ...someoneNewLikes,
      changed: (body: { post: Post }) => body.post.likes,
    },
    {
      name: "someone else's like, in the compact view of a feed",
      read: () => '/api/posts?limit=4&view=compact',
      ...someoneNewLikes,
      changed: (body: { posts: Post[] }) => body.posts.map((p) => p.likesCount),
    },
    {
      name: 'a comment, in the full view of a post (the whole conversation)',
      read: () => `/api/posts/${post._id}`,
      write: () =>
        t.http.put('/api/comment').set('Authorization', reader.auth).send({ postId: post._id, text: 'yo' }).expect(200),
      changed: (body: { post: Post }) => body.post.comments.map((c) => c.text),
    },
    {
      name: 'a comment',
      read: () => '/api/posts?limit=4',
      write: () =>
        t.http.put('/api/comment').set('Authorization', reader.auth).send({ postId: post._id, text: 'hi' }).expect(200),
      changed: (body: { posts: Post[] }) => body.posts.map((p) => p.commentsCount),
    },
    {
      name: 'a like, in the hot feed (it ranks by likes)',
      read: () => '/api/posts?feed=hot&view=compact',
      ...someoneNewLikes,
      changed: (body: { posts: Post[] }) => body.posts.map((p) => p.likesCount),
    },
    {
      name: 'a like, in the top posts',
      read: () => '/api/top-posts',
      ...someoneNewLikes,
      changed: (body: { posts: { likesCount: number }[] }) => body.posts.map((p) => p.likesCount),
    },
    {
      name: 'an unlike',
      read: () => `/api/posts/${post._id}?view=compact`,
      setup: async () => {
        liker = await createUser(t);
        await t.http.put('/api/like').set('Authorization', liker.auth).send({ postId: post._id }).expect(200);
      },
      write: () => t.http.put('/api/unlike').set('Authorization', liker.auth).send({ postId: post._id }).expect(200),
      changed: (body: { post: Post }) => body.post.likesCount,
    },
    {
      name: 'a comment, in the conversation (the post is named by the URL only)',
      read: () => `/api/posts/${post._id}/comments`,
      write: () =>
        t.http
          .put('/api/comment')
          .set('Authorization', reader.auth)
          .send({ postId: post._id, text: 'more' })
          .expect(200),
      changed: (body: { comments: { text: string }[] }) => body.comments.map((c) => c.text),
    },
    {
      name: "a comment's edit, in the conversation",
      read: () => `/api/posts/${post._id}/comments`,
      setup: async () => {
        await t.http
          .put('/api/comment')
          .set('Authorization', reader.auth)
          .send({ postId: post._id, text: 'typo' })
          .expect(200);
      },
      write: async () => {
        const comments = (await t.http.get(`/api/posts/${post._id}/comments`)).body.comments as {
          _id: string;
          text: string;
        }[];
        const mine = comments.find((c) => c.text === 'typo');
        await t.http
          .put(`/api/comment/${post._id}/${mine?._id}`)
          .set('Authorization', reader.auth)
          .send({ text: 'fixed' })
          .expect(200);
      },
      changed: (body: { comments: { text: string }[] }) => body.comments.map((c) => c.text),
    },
    {
      name: 'a new post',
      read: () => `/api/userposts/${author.id}`,
      write: () => createPost(t, author),
      changed: (body: { userPosts: Post[] }) => body.userPosts.length,
    },
    {
      name: 'a follow',
      read: () => `/api/user/${author.id}`,
      write: () =>
        t.http.put('/api/follow').set('Authorization', reader.auth).send({ followId: author.id }).expect(200),
      changed: (body: { user: { followers: string[] } }) => body.user.followers,
    },
    {
      name: 'a block, which ends a follow',
      read: () => `/api/user/${author.id}`,
      setup: async () => {
        await t.http.put('/api/follow').set('Authorization', reader.auth).send({ followId: author.id }).expect(200);
      },
      write: () => t.http.put('/api/block').set('Authorization', author.auth).send({ userId: reader.id }).expect(200),
      changed: (body: { user: { followers: string[] } }) => body.user.followers,
    },
    {
      name: 'a new picture (shown on every post of its author)',
      read: () => '/api/posts?limit=4',
      write: () =>
        t.http
          .put('/api/updatepic')
          .set('Authorization', author.auth)
          .send({ pic: '/uploads/0123456789abcdef01234567.webp' })
          .expect(200),
      changed: (body: { posts: Post[] }) => body.posts.map((p) => p.postedBy.pic),
    },
    {
      name: 'a new notice',
      read: () => '/api/allnotices',
      write: () => createNotice(t, author),
      changed: (body: { notices: unknown[] }) => body.notices.length,
    },
    {
      name: 'a new post, in search results',
      read: () => '/api/search?q=quokka',
      write: () => createPost(t, author, { title: 'A quokka appears' }),
      changed: (body: { results: { _id: string }[] }) => body.results.map((p) => p._id),
    },
    {
      name: 'an edited post, in search results',
      read: () => '/api/search?q=quokka',
      write: () =>
        t.http
          .put(`/api/editpost/${post._id}`)
          .set('Authorization', author.auth)
          .send({ title: 'Cached quokka', desc: post.desc, category: CATEGORIES[0] })
          .expect(200),
      changed: (body: { results: { _id: string }[] }) => body.results.map((p) => p._id),
    },
    {
      name: "a new post's tag, in the tag suggestions",
      read: () => '/api/tags?prefix=cach',
      write: () => createPost(t, author, { tags: ['cached-tag'] }),
      changed: (body: { tags: { name: string }[] }) => body.tags.map((tag) => tag.name),
    },
    {
      name: "a tag's follower, on the tag's page",
      read: () => '/api/tags/cached-tag',
      write: () => t.http.put('/api/tags/cached-tag/follow').set('Authorization', reader.auth).expect(200),
      changed: (body: { tag: { followersCount: number } }) => body.tag.followersCount,
    },
    {
      name: 'a deleted post',
      read: () => '/api/top-posts',
      setup: async () => {
        doomed = await createPost(t, author);
      },
      write: () => t.http.delete(`/api/deletepost/${doomed._id}`).set('Authorization', author.auth).expect(200),
      changed: (body: { posts: { _id: string }[] }) => body.posts.map((p) => p._id),
    },
  ];

  it.each(writes)('shows $name at once', async ({ read: path, setup, write, changed }) => {
    await setup?.();
    const before = await read(path());
    expect((await read(path())).statements).toBe(0); // cached
    await write();
    const after = await read(path());
    expect(after.statements).toBeGreaterThan(0);
    expect(changed(after.response.body as never)).not.toEqual(changed(before.response.body as never));
  });
});

describe('the read cache and the frequent writes (a like, a comment)', () => {
  let t: TestApp;
  let statements = 0;

  beforeAll(async () => {
    t = await startTestApp({ READ_CACHE_TTL_MS: '60000' }, () => (statements += 1));
  });

  afterAll(() => t.close());

  it('keeps the replies a like or a comment does not change: lists without that post', async () => {
    const author = await createUser(t);
    const liker = await createUser(t);
    const other = await createPost(t, author, { title: 'Not on the first page soon' });
    for (let index = 0; index < 4; index += 1) await createPost(t, author);
    const page = '/api/posts?limit=4&view=compact';
    const read = async () => {
      statements = 0;
      const response = await t.http.get(page).expect(200);
      return { body: response.body as { posts: Post[] }, statements };
    };
    await read();
    expect((await read()).statements).toBe(0);
    await t.http.put('/api/like').set('Authorization', liker.auth).send({ postId: other._id }).expect(200);
    await t.http
      .put('/api/comment')
      .set('Authorization', liker.auth)
      .send({ postId: other._id, text: 'x' })
      .expect(200);
    const after = await read();
    expect(after.statements).toBe(0);
    expect(after.body.posts.map((p) => p._id)).not.toContain(other._id);
    // A like on a post of the page drops it.
    await t.http
      .put('/api/like')
      .set('Authorization', liker.auth)
      .send({ postId: after.body.posts[0]._id })
      .expect(200);
    const liked = await read();
    expect(liked.statements).toBeGreaterThan(0);
    expect(liked.body.posts[0].likesCount).toBe(1);
  });
});

describe('the read cache and changes made outside this server', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ READ_CACHE_TTL_MS: '300' });
  });

  afterAll(() => t.close());

  it('shows a change made behind its back once the TTL has passed', async () => {
    const author = await createUser(t);
    const post = await createPost(t, author, { title: 'Before' });
    await t.http.get(`/api/posts/${post._id}`).expect(200);
    await t.db.updateTable('posts').set({ title: 'After' }).where('id', '=', post._id).execute();
    expect((await t.http.get(`/api/posts/${post._id}`)).body.post.title).toBe('Before');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await t.http.get(`/api/posts/${post._id}`)).body.post.title).toBe('After');
  });
});
