import { JwtService } from '@nestjs/jwt';
import type { Comment, Post } from '@techit/contract/api-types';
import { DEFAULT_PROFILE_PIC, LIST_COMMENTS_PREVIEW } from '@techit/contract/limits';
import type { Response } from 'supertest';
import { newObjectId } from '../src/common/object-id';
import { asListed, createPost, createUser, type TestUser } from './support/factories';
import { postRow } from './support/post-row-factories';
import { startTestApp, type TestApp } from './support/test-app';

/** Well-formed, but no row has it. */
const MISSING_ID = '0123456789abcdef01234567';

let t: TestApp;
let viewer: TestUser;
let loner: TestUser;
let ann: TestUser;
let ben: TestUser;
let cal: TestUser;
/** Posts by name: a1 (oldest), b1, c1, a2, b2, c2 (newest). */
const posts: Record<string, Post> = {};

beforeAll(async () => {
  t = await startTestApp();
  viewer = await createUser(t);
  loner = await createUser(t);
  ann = await createUser(t);
  ben = await createUser(t);
  cal = await createUser(t);
  for (const followId of [ann.id, ben.id]) {
    await t.http.put('/api/follow').set('Authorization', viewer.auth).send({ followId }).expect(200);
  }
  for (const [name, author] of [
    ['a1', ann],
    ['b1', ben],
    ['c1', cal],
    ['a2', ann],
    ['b2', ben],
    ['c2', cal],
  ] as const) {
    posts[name] = await createPost(t, author, { title: name });
  }
});
afterAll(() => t.close());

function feed(query: Record<string, string | number> = {}, auth?: string) {
  const request = t.http.get('/api/posts').query(query);
  if (auth) request.set('Authorization', auth);
  return request;
}

function titles(body: { posts: Post[] }): string[] {
  return body.posts.map((post) => post.title);
}

/** Every post of a feed, walked page by page through nextCursor. */
async function walkByCursor(query: Record<string, string | number>, auth?: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard += 1) {
    const response: Response = await feed(cursor ? { ...query, cursor } : query, auth).expect(200);
    seen.push(...titles(response.body));
    cursor = response.body.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('the cursor never ended');
}

describe('GET /api/posts (for-you)', () => {
  it('shows a visitor the 4 newest posts of everyone, newest first, with a cursor for more', async () => {
    const response = await feed().expect(200);
    expect(response.body).toEqual({ posts: expect.any(Array), nextCursor: expect.any(String) });
    expect(titles(response.body)).toEqual(['c2', 'b2', 'a2', 'c1']);
  });

  it('answers each post in full, as GET /api/posts/:id does (without the article, which lists never carry)', async () => {
    await t.http.put('/api/like').set('Authorization', viewer.auth).send({ postId: posts.c2._id }).expect(200);
    await t.http
      .put('/api/comment')
      .set('Authorization', loner.auth)
      .send({ postId: posts.c2._id, text: 'hello' })
      .expect(200);
    const single = await t.http.get(`/api/posts/${posts.c2._id}`).expect(200);
    const singleAsViewer = await t.http.get(`/api/posts/${posts.c2._id}`).set('Authorization', viewer.auth).expect(200);

    const response = await feed().expect(200);
    const asViewer = await feed({}, viewer.auth).expect(200);

    expect(response.body.posts[0]).toEqual(asListed(single.body.post as Post));
    expect(response.body.posts[0]).toMatchObject({ likes: [viewer.id], likesCount: 1, commentsCount: 1 });
    expect(asViewer.body.posts[0]).toEqual(asListed(singleAsViewer.body.post as Post));
    expect(asViewer.body.posts[0]).toMatchObject({ likes: [viewer.id], likesCount: 1, commentsCount: 1 });
  });

  it('answers the same for feed=for-you, for a logged-in viewer and for one with userId', async () => {
    const visitor = await feed().expect(200);
    for (const response of [
      await feed({ feed: 'for-you' }).expect(200),
      await feed({ feed: 'for-you', userId: loner.id }).expect(200),
      await feed({}, loner.auth).expect(200),
    ]) {
      expect(response.body).toEqual(visitor.body);
    }
    // A viewer who likes some of them sees the same page with only their own likes marked.
    const liked = await t.db.selectFrom('likes').select('post_id').where('user_id', '=', viewer.id).execute();
    const likedIds = new Set(liked.map((row) => row.post_id));
    expect((visitor.body.posts as Post[]).some((post) => likedIds.has(post._id))).toBe(true);
    const asViewer = await feed({}, viewer.auth).expect(200);
    expect(asViewer.body).toEqual({
      ...visitor.body,
      posts: (visitor.body.posts as Post[]).map((post) => ({
        ...post,
        likes: likedIds.has(post._id) ? [viewer.id] : [],
      })),
    });
  });

  it('pages by page number: page 2 holds the rest, with no cursor after a short last page', async () => {
    const response = await feed({ page: 2 }).expect(200);
    expect(titles(response.body)).toEqual(['b1', 'a1']);
    expect(response.body.nextCursor).toBeNull();
  });

  it('answers an empty page past the end', async () => {
    const response = await feed({ page: 3 }).expect(200);
    expect(response.body).toEqual({ posts: [], nextCursor: null });
  });

  it.each([
    [1, ['c2']],
    [2, ['c2', 'b2']],
    [50, ['c2', 'b2', 'a2', 'c1', 'b1', 'a1']],
  ])('honours limit %s', async (limit, expected) => {
    const response = await feed({ limit }).expect(200);
    expect(titles(response.body)).toEqual(expected);
  });

  it.each([
    ['limit 51', { limit: '51' }, 'limit must be at most 50'],
    ['limit 0', { limit: '0' }, 'limit must be 1 or more'],
    ['limit -1', { limit: '-1' }, 'limit must be 1 or more'],
    ['limit abc', { limit: 'abc' }, 'limit must be a whole number'],
    ['limit 1.5', { limit: '1.5' }, 'limit must be a whole number'],
    ['page 0', { page: '0' }, 'page must be 1 or more'],
    ['page abc', { page: 'abc' }, 'page must be a whole number'],
    ['feed bogus', { feed: 'bogus' }, 'feed must be one of: for-you, following, hot, tag, tags'],
  ])('rejects %s with 400', async (_name, query, message) => {
    const response = await feed(query).expect(400);
    expect(response.body).toEqual({ error: message });
  });

  it('treats an invalid token as a visitor instead of failing', async () => {
    const visitor = await feed().expect(200);
    const response = await feed({}, 'Bearer not-a-real-token').expect(200);
    expect(response.body).toEqual(visitor.body);
  });

  it('treats an expired token as a visitor instead of failing', async () => {
    const expired = t.app.get(JwtService).sign({ sub: viewer.id }, { expiresIn: -60 });
    const visitor = await feed().expect(200);
    const response = await feed({}, `Bearer ${expired}`).expect(200);
    expect(response.body).toEqual(visitor.body);
  });
});

describe('GET /api/posts (following)', () => {
  it('shows a logged-in viewer only the posts of the people they follow, newest first', async () => {
    const response = await feed({ feed: 'following', limit: 10 }, viewer.auth).expect(200);
    expect(titles(response.body)).toEqual(['b2', 'a2', 'b1', 'a1']);
    expect(response.body.nextCursor).toBeNull();
  });

  it('shows a visitor the following feed of the user named by userId', async () => {
    const response = await feed({ feed: 'following', userId: viewer.id, limit: 10 }).expect(200);
    expect(titles(response.body)).toEqual(['b2', 'a2', 'b1', 'a1']);
  });

  it("uses the token's user over userId", async () => {
    const response = await feed({ feed: 'following', userId: viewer.id }, loner.auth).expect(200);
    expect(response.body).toEqual({ posts: [], nextCursor: null });
  });

  it('answers an empty feed for someone who follows nobody', async () => {
    const response = await feed({ feed: 'following' }, loner.auth).expect(200);
    expect(response.body).toEqual({ posts: [], nextCursor: null });
  });

  it('pages the following feed with the default limit of 4', async () => {
    await createPost(t, ann, { title: 'a3' });
    const first = await feed({ feed: 'following' }, viewer.auth).expect(200);
    expect(titles(first.body)).toEqual(['a3', 'b2', 'a2', 'b1']);
    const next = await feed({ feed: 'following', cursor: first.body.nextCursor }, viewer.auth).expect(200);
    expect(next.body).toEqual({ posts: [expect.objectContaining({ title: 'a1' })], nextCursor: null });
  });

  it('treats an invalid token with a userId as a visitor asking for that user', async () => {
    const response = await feed({ feed: 'following', userId: viewer.id, limit: 10 }, 'Bearer broken').expect(200);
    expect(titles(response.body)).toEqual(['a3', 'b2', 'a2', 'b1', 'a1']);
  });

  it('rejects a visitor who names no user with 400', async () => {
    const response = await feed({ feed: 'following' }).expect(400);
    expect(response.body).toEqual({ error: 'Log in (or pass userId) to see the following feed' });
  });

  it('rejects an invalid token without a userId with 400, as for any visitor', async () => {
    const response = await feed({ feed: 'following' }, 'Bearer broken').expect(400);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['an unknown userId', MISSING_ID],
    ['a malformed userId', 'abc'],
  ])('answers 404 for %s', async (_name, userId) => {
    const response = await feed({ feed: 'following', userId }).expect(404);
    expect(response.body).toEqual({ error: "This user doesn't exist" });
  });
});

describe('GET /api/posts (cursor)', () => {
  it('walks the whole feed by cursor, each post once, newest first', async () => {
    const all = await feed({ limit: 50 }).expect(200);
    expect(await walkByCursor({ limit: 2 })).toEqual(titles(all.body));
    expect(await walkByCursor({ limit: 3 })).toEqual(titles(all.body));
  });

  it('neither repeats nor skips a post when a new one arrives between pages (where page numbers repeat one)', async () => {
    const before = titles((await feed({ limit: 50 }).expect(200)).body);
    const first = await feed({ limit: 2 }).expect(200);
    expect(titles(first.body)).toEqual(before.slice(0, 2));

    await createPost(t, cal, { title: 'brand new' });

    const byCursor = await feed({ limit: 2, cursor: first.body.nextCursor }).expect(200);
    expect(titles(byCursor.body)).toEqual(before.slice(2, 4));
    // Page 2 by number has shifted by the new post: it repeats the last post of page 1.
    const byPage = await feed({ limit: 2, page: 2 }).expect(200);
    expect(titles(byPage.body)).toEqual(before.slice(1, 3));

    const rest = await walkByCursor({ limit: 2, cursor: byCursor.body.nextCursor });
    expect([...titles(first.body), ...titles(byCursor.body), ...rest]).toEqual(before);
  });

  it('uses the cursor and ignores page when both are sent', async () => {
    const first = await feed({ limit: 2 }).expect(200);
    const byCursor = await feed({ limit: 2, cursor: first.body.nextCursor }).expect(200);
    const both = await feed({ limit: 2, cursor: first.body.nextCursor, page: 5 }).expect(200);
    expect(both.body).toEqual(byCursor.body);
  });

  it('answers a null cursor on a short last page', async () => {
    const all = titles((await feed({ limit: 50 }).expect(200)).body);
    const first = await feed({ limit: all.length - 1 }).expect(200);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const last = await feed({ limit: all.length - 1, cursor: first.body.nextCursor }).expect(200);
    expect(last.body).toEqual({ posts: [expect.objectContaining({ title: all[all.length - 1] })], nextCursor: null });
  });

  it('answers a null cursor when the last page is exactly full, so no empty page is ever fetched', async () => {
    const all = titles((await feed({ limit: 50 }).expect(200)).body);
    const whole = await feed({ limit: all.length }).expect(200);
    expect(whole.body.nextCursor).toBeNull();
    const first = await feed({ limit: 2 }).expect(200);
    const second = await feed({ limit: all.length - 2, cursor: first.body.nextCursor }).expect(200);
    expect(titles(second.body)).toEqual(all.slice(2));
    expect(second.body.nextCursor).toBeNull();
  });

  it.each([
    ['text that is not a cursor', 'garbage'],
    ['a cursor without an id', Buffer.from('2026-01-01T00:00:00.000Z').toString('base64url')],
    ['a cursor with a bad date', Buffer.from(`yesterday|${MISSING_ID}`).toString('base64url')],
    ['a cursor with a malformed id', Buffer.from('2026-01-01T00:00:00.000Z|abc').toString('base64url')],
    ['a cursor with extra parts', Buffer.from(`2026-01-01T00:00:00.000Z|${MISSING_ID}|x`).toString('base64url')],
    ['a cursor of 201 characters', 'A'.repeat(201)],
  ])('rejects %s with 400', async (_name, cursor) => {
    const response = await feed({ cursor }).expect(400);
    expect(response.body).toEqual({ error: 'That cursor is not valid; start again from the first page' });
  });
});

describe("what a compact list (view=compact) shows of each post: its newest comments and the viewer's own likes", () => {
  // Its own app, so the pages hold exactly these posts.
  let lists: TestApp;
  let author: TestUser;
  let other: TestUser;
  let reader: TestUser;
  let fan: TestUser;
  /** How many comments each post gets: none, one, exactly a preview's worth, more than a preview. */
  const sizes = [0, 1, LIST_COMMENTS_PREVIEW, LIST_COMMENTS_PREVIEW + 2];
  /** title → the post; all by author except "by other". */
  const made = new Map<string, Post>();
  /** title → its comments' texts in the order written. */
  const written = new Map<string, string[]>();
  /** title → who likes it. */
  const likers = new Map<string, TestUser[]>();

  beforeAll(async () => {
    lists = await startTestApp();
    [author, other, reader, fan] = await Promise.all([1, 2, 3, 4].map(() => createUser(lists)));
    for (const follower of [reader, fan]) {
      for (const followId of [author.id, other.id]) {
        await lists.http.put('/api/follow').set('Authorization', follower.auth).send({ followId }).expect(200);
      }
    }
    const plan: [TestUser, string, number][] = [
      ...sizes.map((size): [TestUser, string, number] => [author, `${size} comments`, size]),
      [other, 'by other', 2],
    ];
    for (const [by, title, size] of plan) {
      made.set(title, await createPost(lists, by, { title }));
      written.set(
        title,
        Array.from({ length: size }, (_, i) => `${title} #${i}`),
      );
    }
    // Round-robin, so the comments of different posts interleave in time.
    for (let round = 0; round < Math.max(...sizes); round += 1) {
      for (const [title, texts] of written) {
        if (round >= texts.length) continue;
        await lists.http
          .put('/api/comment')
          .set('Authorization', (round % 2 ? fan : reader).auth)
          .send({ postId: made.get(title)!._id, text: texts[round] })
          .expect(200);
      }
    }
    // reader likes some posts but not others; fan likes others still.
    likers.set('1 comments', [reader]);
    likers.set(`${LIST_COMMENTS_PREVIEW + 2} comments`, [reader, fan]);
    likers.set('by other', [reader]);
    likers.set('0 comments', [fan]);
    for (const [title, users] of likers) {
      for (const user of users) {
        await lists.http
          .put('/api/like')
          .set('Authorization', user.auth)
          .send({ postId: made.get(title)!._id })
          .expect(200);
      }
    }
  });
  afterAll(() => lists.close());

  /** Each list, as a viewer (a token) or a visitor (none) asks for it, with the titles it must hold. */
  const endpoints: [string, (auth?: string) => Promise<Post[]>, () => string[]][] = [
    [
      'the for-you feed',
      async (auth) => {
        const request = lists.http.get('/api/posts').query({ limit: 50, view: 'compact' });
        if (auth) request.set('Authorization', auth);
        return (await request.expect(200)).body.posts as Post[];
      },
      () => [...made.keys()],
    ],
    [
      'the following feed',
      async (auth) => {
        // The token's user when sent, else reader named by userId; both follow author and other.
        const request = lists.http
          .get('/api/posts')
          .query({ feed: 'following', userId: reader.id, limit: 50, view: 'compact' });
        if (auth) request.set('Authorization', auth);
        return (await request.expect(200)).body.posts as Post[];
      },
      () => [...made.keys()],
    ],
    [
      "a user's posts",
      async (auth) => {
        const request = lists.http.get(`/api/userposts/${author.id}`).query({ view: 'compact' });
        if (auth) request.set('Authorization', auth);
        return (await request.expect(200)).body.userPosts as Post[];
      },
      () => [...made.keys()].filter((title) => title !== 'by other'),
    ],
  ];

  async function conversationOf(post: Post): Promise<Comment[]> {
    return (await lists.http.get(`/api/posts/${post._id}/comments`).expect(200)).body.comments as Comment[];
  }

  it.each(endpoints)(
    '%s shows each post its own newest comments, oldest first, and counts them all',
    async (_name, fetchList, expectedTitles) => {
      const page = await fetchList();

      expect(page.map((post) => post.title).sort()).toEqual(expectedTitles().sort());
      for (const post of page) {
        const texts = written.get(post.title)!;
        expect({ title: post.title, comments: post.comments.map((c) => c.text), count: post.commentsCount }).toEqual({
          title: post.title,
          comments: texts.slice(-LIST_COMMENTS_PREVIEW),
          count: texts.length,
        });
        // Whole comments, exactly as the post's own conversation has them.
        expect(post.comments).toEqual((await conversationOf(post)).slice(-LIST_COMMENTS_PREVIEW));
      }
    },
  );

  it('shows a post with more comments than a preview only its newest, and one with fewer all of them', async () => {
    const page = await endpoints[0][1]();
    const titled = (title: string) => page.find((post) => post.title === title)!;
    const long = titled(`${LIST_COMMENTS_PREVIEW + 2} comments`);
    expect({ texts: long.comments.map((c) => c.text), count: long.commentsCount }).toEqual({
      // The two oldest are left out.
      texts: written.get(long.title)!.slice(2),
      count: LIST_COMMENTS_PREVIEW + 2,
    });
    for (const size of [0, 1, LIST_COMMENTS_PREVIEW]) {
      const post = titled(`${size} comments`);
      expect({ size, texts: post.comments.map((c) => c.text), count: post.commentsCount }).toEqual({
        size,
        texts: written.get(post.title),
        count: size,
      });
    }
  });

  it.each(endpoints)("%s marks the viewer's own likes and no one else's", async (_name, fetchList) => {
    for (const viewer of [reader, fan]) {
      const page = await fetchList(viewer.auth);
      const seen = page.map((post) => ({ title: post.title, likes: post.likes, likesCount: post.likesCount }));
      const expected = page.map((post) => {
        const theirs = likers.get(post.title) ?? [];
        return {
          title: post.title,
          likes: theirs.includes(viewer) ? [viewer.id] : [],
          likesCount: theirs.length,
        };
      });
      expect({ viewer: viewer.userName, seen }).toEqual({ viewer: viewer.userName, seen: expected });
      // The page really mixes liked and unliked posts for this viewer.
      expect(new Set(seen.map((post) => post.likes.length))).toEqual(new Set([0, 1]));
    }
  });

  it.each(endpoints)('%s shows a visitor no likes, only the counts', async (_name, fetchList) => {
    const page = await fetchList();
    expect(page.map((post) => ({ title: post.title, likes: post.likes, likesCount: post.likesCount }))).toEqual(
      page.map((post) => ({ title: post.title, likes: [], likesCount: (likers.get(post.title) ?? []).length })),
    );
  });

  it.each(endpoints)('%s treats an invalid or expired token as a visitor', async (_name, fetchList) => {
    const expired = lists.app.get(JwtService).sign({ sub: reader.id }, { expiresIn: -60 });
    const visitor = await fetchList();
    expect(await fetchList(`${reader.auth}x`)).toEqual(visitor);
    expect(await fetchList(`Bearer ${expired}`)).toEqual(visitor);
  });
});

describe('GET /api/posts (following, for someone who follows hundreds)', () => {
  // Past 100 followees the feed is read by walking the newest posts instead of each followee's
  // (PostsRepository.followedBy): the same posts must come back, page after page.
  let app: TestApp;
  let reader: TestUser;
  const expected: string[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    reader = await createUser(app);
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const users = Array.from({ length: 150 }, (_, i) => {
      const userName = `many${i}_${process.pid}`;
      return {
        id: newObjectId(new Date(start + i)),
        user_name: userName,
        email: `${userName}@example.com`,
        email_key: `${userName}@example.com`,
        password_hash: 'never-signs-in',
        pic: DEFAULT_PROFILE_PIC,
        bio: '',
        position: '',
        theme: 'light',
        role: 'user',
        created_at: new Date(start).toISOString(),
        updated_at: new Date(start).toISOString(),
        token_version: 0,
      };
    });
    await app.db.insertInto('users').values(users).execute();
    // The reader follows the first 120; the other 30 post too, and must not show.
    await app.db
      .insertInto('follows')
      .values(users.slice(0, 120).map((u) => ({ follower_id: reader.id, followee_id: u.id, created_at: u.created_at })))
      .execute();
    const rows = Array.from({ length: 300 }, (_, i) => {
      const author = users[(i * 7) % users.length];
      return {
        ...postRow({
          id: newObjectId(new Date(start + i * 1000)),
          authorId: author.id,
          at: new Date(start + 60_000 * (i % 50) + i).toISOString(),
          title: `Post ${i}`,
        }),
        followed: users.indexOf(author) < 120,
      };
    });
    await app.db
      .insertInto('posts')
      .values(rows.map(({ followed: _followed, ...row }) => row))
      .execute();
    const newestFirst = rows
      .filter((row) => row.followed)
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    expected.push(...newestFirst.map((row) => row.id));
  });

  afterAll(() => app.close());

  it('lists exactly the followed authors’ posts, newest first, through every cursor page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/posts?feed=following&limit=7${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await app.http.get(query).set('Authorization', reader.auth).expect(200);
      seen.push(...(response.body.posts as Post[]).map((post) => post._id));
      cursor = response.body.nextCursor as string | null;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  it('answers the same by page number and by userId', async () => {
    const page3 = await app.http.get(`/api/posts?feed=following&userId=${reader.id}&limit=9&page=3`).expect(200);
    expect((page3.body.posts as Post[]).map((post) => post._id)).toEqual(expected.slice(18, 27));
  });
});
