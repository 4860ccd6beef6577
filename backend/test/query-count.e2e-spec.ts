import { newObjectId } from '../src/common/object-id';
import { createNotice, createPost, createUser, makeModerator, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * No N+1: every list answers with a fixed number of SQL statements, whether it shows one item or
 * fifty. Each case is measured at page sizes 1 and 50 (and 20, a typical one) over data where
 * every post has likes and comments and every author differs, so a per-item query would show.
 */
describe('SQL statements per list request', () => {
  let t: TestApp;
  let statements: string[] = [];
  let reader: TestUser;
  let author: TestUser;
  let somePostId: string;

  beforeAll(async () => {
    t = await startTestApp({}, (sql) => statements.push(sql));
    reader = await createUser(t);
    author = await createUser(t);
    const others = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    await t.http.put('/api/follow').set('Authorization', reader.auth).send({ followId: author.id }).expect(200);
    for (const other of others) {
      await t.http.put('/api/follow').set('Authorization', reader.auth).send({ followId: other.id }).expect(200);
    }
    const writers = [author, ...others];
    for (let i = 0; i < 60; i += 1) {
      const post = await createPost(t, writers[i % writers.length], { tags: ['shared'] });
      somePostId = post._id;
      for (const fan of [reader, ...others].slice(0, 1 + (i % 4))) {
        await t.http.put('/api/like').set('Authorization', fan.auth).send({ postId: post._id }).expect(200);
        await t.http
          .put('/api/comment')
          .set('Authorization', fan.auth)
          .send({ postId: post._id, text: `comment ${i}` })
          .expect(200);
      }
      await createNotice(t, writers[i % writers.length], { links: ['https://example.com/a', 'https://example.com/b'] });
      // The reader saves every post: their bookmarks list is measured too, and a per-post
      // "did the reader save it" would show in every list they read.
      await t.http.put('/api/bookmark').set('Authorization', reader.auth).send({ postId: post._id }).expect(200);
    }
  }, 120_000);

  afterAll(() => t.close());

  /** Runs the request and answers how many statements it took, after checking it listed `size` items. */
  async function countFor(path: (size: number) => string, size: number, listed: string, viewer?: TestUser) {
    statements = [];
    const request = t.http.get(path(size));
    const response = await (viewer ? request.set('Authorization', viewer.auth) : request);
    expect(response.status).toBe(200);
    expect(response.body[listed]).toHaveLength(size);
    return statements.length;
  }

  const compactCases: {
    name: string;
    path: (size: number) => string;
    listed: string;
    viewer?: () => TestUser;
    expected: number;
    /** The author's lists hold 15 posts and 15 notices, the others 60; page 2 of 50 would be short. */
    sizes?: number[];
  }[] = [
    // the page, its posts' tags (one statement, decision 032), then the newest comments of its posts
    {
      name: 'the for-you feed for a visitor',
      path: (n) => `/api/posts?limit=${n}&view=compact`,
      listed: 'posts',
      expected: 3,
    },
    // plus the token's account, which of the page's posts the viewer likes and which they saved
    {
      name: 'the for-you feed for a logged-in reader',
      path: (n) => `/api/posts?limit=${n}&view=compact`,
      listed: 'posts',
      viewer: () => reader,
      expected: 6,
    },
    {
      name: 'the for-you feed by page number',
      path: (n) => `/api/posts?limit=${n}&page=2&view=compact`,
      listed: 'posts',
      expected: 3,
      sizes: [1, 15, 30],
    },
    // plus how many people the reader follows (it picks the query's form)
    {
      name: 'the following feed of a logged-in reader',
      path: (n) => `/api/posts?feed=following&limit=${n}&view=compact`,
      listed: 'posts',
      viewer: () => reader,
      expected: 7,
    },
    // plus the check that the userId exists
    {
      name: 'the following feed by userId',
      path: (n) => `/api/posts?feed=following&userId=${reader.id}&limit=${n}&view=compact`,
      listed: 'posts',
      expected: 5,
    },
    {
      name: "a user's posts",
      path: (n) => `/api/userposts/${author.id}?limit=${n}&view=compact`,
      listed: 'userPosts',
      expected: 4,
      sizes: [1, 15],
    },
    // The reader's account, the page of bookmarks, its posts, their tags, the reader's likes
    // among them and their newest comments: no "did the reader save it" (all of them are saved).
    {
      name: "the reader's bookmarks",
      path: (n) => `/api/bookmarks?limit=${n}`,
      listed: 'posts',
      viewer: () => reader,
      expected: 6,
    },
    // Searching within and filtering by tag are conditions of the same page statement.
    {
      name: "a search within the reader's bookmarks, by tag too",
      path: (n) => `/api/bookmarks?limit=${n}&q=description%20-nothing&tag=shared`,
      listed: 'posts',
      viewer: () => reader,
      expected: 6,
    },
  ];

  /**
   * The full view (the default) reads every liker and every comment of the page's posts, each in
   * one statement: the page, its tags, its likes, its comments. It needs no "which does the viewer
   * like", but a reader's list says which posts they saved (one more).
   */
  const fullCases: typeof compactCases = [
    { name: 'the for-you feed for a visitor', path: (n) => `/api/posts?limit=${n}`, listed: 'posts', expected: 4 },
    {
      name: 'the for-you feed for a logged-in reader',
      path: (n) => `/api/posts?limit=${n}`,
      listed: 'posts',
      viewer: () => reader,
      expected: 6,
    },
    {
      name: 'the for-you feed by page number',
      path: (n) => `/api/posts?limit=${n}&page=2&view=full`,
      listed: 'posts',
      expected: 4,
      sizes: [1, 15, 30],
    },
    {
      name: 'the following feed of a logged-in reader',
      path: (n) => `/api/posts?feed=following&limit=${n}`,
      listed: 'posts',
      viewer: () => reader,
      expected: 7,
    },
    {
      name: 'the following feed by userId',
      path: (n) => `/api/posts?feed=following&userId=${reader.id}&limit=${n}`,
      listed: 'posts',
      expected: 6,
    },
    {
      name: "a user's posts",
      path: (n) => `/api/userposts/${author.id}?limit=${n}`,
      listed: 'userPosts',
      expected: 5,
      sizes: [1, 15],
    },
  ];

  const cases: typeof compactCases = [
    ...compactCases.map((c) => ({ ...c, name: `${c.name}, compact` })),
    ...fullCases.map((c) => ({ ...c, name: `${c.name}, full` })),
    { name: 'all notices', path: (n) => `/api/allnotices?limit=${n}`, listed: 'notices', expected: 1 },
    {
      name: "a user's notices",
      path: (n) => `/api/usernotices/${author.id}?limit=${n}`,
      listed: 'notices',
      expected: 2,
      sizes: [1, 15],
    },
  ];

  describe.each(cases)('$name', ({ path, listed, viewer, expected, sizes = [1, 15, 50] }) => {
    it(`takes ${expected} statement${expected === 1 ? '' : 's'} for a page of ${sizes.join(', ')} items`, async () => {
      const who = viewer?.();
      for (const size of sizes) {
        expect({ size, statements: await countFor(path, size, listed, who) }).toEqual({ size, statements: expected });
      }
    });
  });

  it('answers a post in full (every liker, the whole conversation, its tags) in 4 statements, 6 for a logged-in reader (its account, whether they saved it)', async () => {
    statements = [];
    const response = await t.http.get(`/api/posts/${somePostId}`).expect(200);
    expect(response.body.post.likes).toHaveLength(response.body.post.likesCount);
    expect(response.body.post.comments).toHaveLength(response.body.post.commentsCount);
    expect(statements).toHaveLength(4);
    statements = [];
    await t.http.get(`/api/posts/${somePostId}`).set('Authorization', reader.auth).expect(200);
    expect(statements).toHaveLength(6);
  });

  it('answers a compact post in 3 statements, 6 for a logged-in reader (its account, its like, whether they saved it)', async () => {
    statements = [];
    await t.http.get(`/api/posts/${somePostId}?view=compact`).expect(200);
    expect(statements).toHaveLength(3);
    statements = [];
    await t.http.get(`/api/posts/${somePostId}?view=compact`).set('Authorization', reader.auth).expect(200);
    expect(statements).toHaveLength(6);
  });

  it("answers a page of a post's comments in 2 statements however many there are", async () => {
    statements = [];
    const response = await t.http.get(`/api/posts/${somePostId}/comments`).expect(200);
    expect(response.body.comments.length).toBeGreaterThan(0);
    expect(statements).toHaveLength(2);
  });

  it("answers a comment's thread (ancestors, the comment, its subtree) in 3 statements however deep it is", async () => {
    const post = await createPost(t, author);
    const ids: string[] = [];
    for (let depth = 0; depth < 6; depth += 1) {
      const response = await t.http
        .put('/api/comment')
        .set('Authorization', reader.auth)
        .send({ postId: post._id, text: `level ${depth}`, parentId: ids[depth - 1] ?? null })
        .expect(200);
      ids.push((response.body.comments as { _id: string }[])[depth]._id);
    }
    // The top, one in the middle, the deepest: each answer holds the whole chain of six.
    for (const middle of [ids[0], ids[2], ids[5]]) {
      statements = [];
      const response = await t.http.get(`/api/posts/${post._id}/comments?thread=${middle}`).expect(200);
      expect(response.body.comments).toHaveLength(6);
      // The post, the comment with its ancestors, its subtree.
      expect(statements).toHaveLength(3);
    }
  });

  it('answers a like in the full view with the likers read in the same transaction: 1 statement more', async () => {
    const fan = await createUser(t);
    const count = async (path: string) => {
      statements = [];
      await t.http.put(path).set('Authorization', fan.auth).send({ postId: somePostId }).expect(200);
      return statements.filter((sql) => !/^(begin|commit|savepoint|release)/i.test(sql.trim())).length;
    };
    const compact = await count('/api/like?view=compact');
    await t.http.put('/api/unlike').set('Authorization', fan.auth).send({ postId: somePostId }).expect(200);
    const full = await count('/api/like');
    expect(full).toBe(compact + 1);
  });

  it("writes a like's notification in the like's transaction: 2 statements more than liking one's own post; an unlike's withdrawal 3, or 1 when there is nothing to withdraw", async () => {
    const [fan, author, other] = [await createUser(t), await createUser(t), await createUser(t)];
    const own = await createPost(t, fan);
    const post = await createPost(t, author);
    const count = async (path: '/api/like' | '/api/unlike', postId: string, user = fan) => {
      statements = [];
      await t.http.put(`${path}?view=compact`).set('Authorization', user.auth).send({ postId }).expect(200);
      // The signal after the commit (PostgreSQL's pg_notify, decision 040) is not the transaction's.
      return statements.filter((sql) => !/^(begin|commit|savepoint|release|select pg_notify)/i.test(sql.trim())).length;
    };
    const ownLike = await count('/api/like', own._id);
    const ownUnlike = await count('/api/unlike', own._id);
    // One upsert of the author's like group (their off-switch folded in; raised only for a liker
    // not in it yet), then the liker's row. It was 4 (switch, group, insert or raise, liker).
    // No notification for yourself.
    expect(await count('/api/like', post._id)).toBe(ownLike + 2);
    // By the group's derived id (like-group-id.ts): one less in its count while unread and holding
    // the liker, the liker's row, and the group itself once empty — the same 3 whether the liker
    // was the last one…
    expect(await count('/api/unlike', post._id)).toBe(ownUnlike + 3);
    // …or one of two.
    await count('/api/like', post._id, other);
    await count('/api/like', post._id);
    expect(await count('/api/unlike', post._id)).toBe(ownUnlike + 3);
    // A group already read keeps its likers: one statement finds nothing to withdraw.
    await count('/api/like', post._id);
    await t.http.put('/api/notifications/read').set('Authorization', author.auth).send({ all: true }).expect(200);
    expect(await count('/api/unlike', post._id)).toBe(ownUnlike + 1);
  });

  it('answers a page of notifications in 4 statements whatever its size', async () => {
    const total = (await t.http.get('/api/notifications?limit=50').set('Authorization', author.auth)).body.notifications
      .length as number;
    expect(total).toBeGreaterThanOrEqual(20);
    for (const size of [1, 20, total]) {
      // The reader's account, the page (with its posts, comments and notices), the unread count,
      // and the newest three actors of every notification on the page.
      expect(await countFor((n) => `/api/notifications?limit=${n}`, size, 'notifications', author)).toBe(4);
    }
  });

  it('answers a profile with its followers and following in 3 statements', async () => {
    statements = [];
    const response = await t.http.get(`/api/user/${reader.id}`).expect(200);
    expect(response.body.user.following).toHaveLength(4);
    expect(statements).toHaveLength(3);
  });

  it('answers the top posts in 1 statement', async () => {
    statements = [];
    const response = await t.http.get('/api/top-posts').expect(200);
    expect(response.body.posts).toHaveLength(5);
    expect(statements).toHaveLength(1);
  });

  // Moderation (decision 047); last, since it removes posts the cases above count.
  it("answers a page of the report queue in 4 statements whatever its size (the moderator's account, the groups, their posts, their notes)", async () => {
    const moderator = await createUser(t);
    await makeModerator(t, moderator);
    const posts = (await t.db.selectFrom('posts').select('id').limit(20).execute()).map((row) => row.id);
    const fileReports = async (ids: string[]) => {
      const now = Date.now();
      await t.db
        .insertInto('reports')
        .values(
          ids.map((id, index) => ({
            id: newObjectId(new Date(now + index)),
            reporter_id: reader.id,
            target_kind: 'post',
            target_id: id,
            reason: 'spam',
            note: 'a note',
            status: 'open',
            created_at: new Date(now + index).toISOString(),
          })),
        )
        .execute();
    };
    for (const [from, to] of [
      [0, 1],
      [1, 20],
    ]) {
      await fileReports(posts.slice(from, to));
      statements = [];
      const response = await t.http.get('/api/reports').set('Authorization', moderator.auth).expect(200);
      expect(response.body.reports).toHaveLength(to);
      expect({ size: to, statements: statements.length }).toEqual({ size: to, statements: 4 });
    }
    await t.db.deleteFrom('reports').execute();
  });

  it('keeps every list at its count when some of its posts were removed by the moderators (the condition is in the same statements)', async () => {
    const removed = (await t.db.selectFrom('posts').select('id').orderBy('created_at', 'desc').limit(5).execute()).map(
      (row) => row.id,
    );
    await t.db
      .updateTable('posts')
      .set({ removed_at: new Date().toISOString(), removed_by: reader.id })
      .where('id', 'in', removed)
      .execute();
    const checks: [string, (n: number) => string, string, number, TestUser | undefined][] = [
      ['for-you', (n) => `/api/posts?limit=${n}&view=compact`, 'posts', 3, undefined],
      ['for-you, signed in', (n) => `/api/posts?limit=${n}&view=compact`, 'posts', 6, reader],
      ['following', (n) => `/api/posts?feed=following&limit=${n}&view=compact`, 'posts', 7, reader],
      ['bookmarks', (n) => `/api/bookmarks?limit=${n}`, 'posts', 6, reader],
    ];
    for (const [name, path, listed, expected, viewer] of checks) {
      for (const size of [1, 15, 50]) {
        const count = await countFor(path, size, listed, viewer);
        expect({ name, size, count }).toEqual({ name, size, count: expected });
        const request = t.http.get(path(size));
        const reply = await (viewer ? request.set('Authorization', viewer.auth) : request).expect(200);
        const ids = (reply.body[listed] as { _id: string }[]).map((post) => post._id);
        expect(ids.filter((id) => removed.includes(id))).toEqual([]);
      }
    }
    statements = [];
    const top = await t.http.get('/api/top-posts').expect(200);
    expect(top.body.posts).toHaveLength(5);
    expect(statements).toHaveLength(1);
  });
});
