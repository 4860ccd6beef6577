import type { Post } from '@techit/contract/api-types';
import type { PostView } from '@techit/contract/enums';
import { LIST_COMMENTS_PREVIEW } from '@techit/contract/limits';
import { createPost, createUser, makeAdmin, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * posts.likes_count, comments_count and commenters_count are kept by hand beside the likes and
 * comments tables (they rank top posts without counting). They must always equal the real counts:
 * of live comments, a "[deleted]" placeholder kept for its replies counting neither as a comment nor
 * as a commenter (docs/decisions/038-comment-threads.md), though the lists still carry it.
 */
let t: TestApp;
let users: TestUser[];
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  users = await Promise.all(Array.from({ length: 24 }, () => createUser(t)));
  admin = await createUser(t);
  await makeAdmin(t, admin);
});
afterAll(() => t.close());

interface Counters {
  likes: number;
  comments: number;
  commenters: number;
}

/**
 * For every post: the stored counters, the counts computed from the likes and comments tables, and
 * how many comment rows (placeholders too) its full conversation lists.
 */
async function countersOfEveryPost(): Promise<{
  stored: Record<string, Counters>;
  real: Record<string, Counters>;
  rows: Record<string, number>;
}> {
  const [posts, likes, comments, rowCounts] = await Promise.all([
    t.db.selectFrom('posts').select(['id', 'likes_count', 'comments_count', 'commenters_count']).execute(),
    t.db
      .selectFrom('likes')
      .select((eb) => ['post_id', eb.fn.countAll().as('n')])
      .groupBy('post_id')
      .execute(),
    t.db
      .selectFrom('comments')
      .select((eb) => ['post_id', eb.fn.countAll().as('n'), eb.fn.count('author_id').distinct().as('authors')])
      .where('deleted', '=', 0)
      .groupBy('post_id')
      .execute(),
    t.db
      .selectFrom('comments')
      .select((eb) => ['post_id', eb.fn.countAll().as('n')])
      .groupBy('post_id')
      .execute(),
  ]);
  const stored: Record<string, Counters> = {};
  const real: Record<string, Counters> = {};
  const rows: Record<string, number> = {};
  for (const post of posts) {
    stored[post.id] = {
      likes: Number(post.likes_count),
      comments: Number(post.comments_count),
      commenters: Number(post.commenters_count),
    };
    const liked = likes.find((row) => row.post_id === post.id);
    const commented = comments.find((row) => row.post_id === post.id);
    real[post.id] = {
      likes: Number(liked?.n ?? 0),
      comments: Number(commented?.n ?? 0),
      commenters: Number(commented?.authors ?? 0),
    };
    rows[post.id] = Number(rowCounts.find((row) => row.post_id === post.id)?.n ?? 0);
  }
  return { stored, real, rows };
}

/**
 * Stored counters equal real ones, no like or comment outlives its post, and the API agrees: the
 * counts are the totals, each user sees their own like marked exactly where the likes table has it
 * (a visitor sees none), and a compact list carries at most the newest LIST_COMMENTS_PREVIEW
 * comments; the full view lists every liker and comment.
 */
async function expectCountersExact(): Promise<Record<string, Counters>> {
  const { stored, real, rows } = await countersOfEveryPost();
  expect(stored).toEqual(real);

  const orphans = await Promise.all([
    t.db
      .selectFrom('likes')
      .select('post_id')
      .where('post_id', 'not in', (eb) => eb.selectFrom('posts').select('id'))
      .execute(),
    t.db
      .selectFrom('comments')
      .select('post_id')
      .where('post_id', 'not in', (eb) => eb.selectFrom('posts').select('id'))
      .execute(),
  ]);
  expect(orphans).toEqual([[], []]);

  // Every post's counts as the API shows them, to a visitor and to each user through their own token.
  const likers = await likersOfEveryPost();
  const expectedView = (viewer: TestUser | null) =>
    Object.fromEntries(
      Object.entries(real).map(([id, counts]) => [
        id,
        {
          likes: counts.likes,
          comments: counts.comments,
          likesListed: viewer && likers.get(id)?.has(viewer.id) ? [viewer.id] : [],
          commentsListed: Math.min(rows[id], LIST_COMMENTS_PREVIEW),
        },
      ]),
    );
  // Every user who likes something, a visitor and one user who likes nothing (all such users see the same).
  const everyone = [...users, admin];
  const likesSomething = (user: TestUser) => [...likers.values()].some((ids) => ids.has(user.id));
  const viewers = [null, ...everyone.filter(likesSomething), everyone.find((user) => !likesSomething(user)) ?? null];
  const views = await Promise.all(viewers.map(async (viewer) => ({ viewer, seen: await feedAs(viewer) })));
  for (const { viewer, seen } of views) {
    expect({ viewer: viewer?.userName ?? 'visitor', seen }).toEqual({
      viewer: viewer?.userName ?? 'visitor',
      seen: expectedView(viewer),
    });
  }
  // The post's own page agrees, with its whole conversation: for every liker, a visitor and a non-liker.
  const details = await Promise.all(
    Object.keys(real).flatMap((id) => {
      const theirs = everyone.filter((user) => likers.get(id)?.has(user.id));
      const nonLiker = everyone.find((user) => !likers.get(id)?.has(user.id)) ?? null;
      return [null, nonLiker, ...theirs].map(async (viewer) => ({
        viewer: viewer?.userName ?? 'visitor',
        seen: await detailAs(viewer, id),
        expected: {
          ...expectedView(viewer)[id],
          commentsListed: rows[id],
        },
      }));
    }),
  );
  for (const { viewer, seen, expected } of details) expect({ viewer, seen }).toEqual({ viewer, seen: expected });
  // The full view (the default) lists every liker and every comment, whoever asks.
  const full = await feedAs(null, 'full');
  expect(full).toEqual(
    Object.fromEntries(
      Object.entries(real).map(([id, counts]) => [
        id,
        {
          likes: counts.likes,
          comments: counts.comments,
          likesListed: [...(likers.get(id) ?? [])].sort(),
          commentsListed: rows[id],
        },
      ]),
    ),
  );
  return real;
}

/** post id → the ids of the users who like it, from the likes table. */
async function likersOfEveryPost(): Promise<Map<string, Set<string>>> {
  const rows = await t.db.selectFrom('likes').select(['post_id', 'user_id']).execute();
  const likers = new Map<string, Set<string>>();
  for (const row of rows) likers.set(row.post_id, (likers.get(row.post_id) ?? new Set()).add(row.user_id));
  return likers;
}

/** The first feed page (every post of this suite fits) as a visitor or a user sees it (compact unless told). */
async function feedAs(viewer: TestUser | null, view: PostView = 'compact') {
  const request = t.http.get('/api/posts').query({ limit: 50, view });
  if (viewer) request.set('Authorization', viewer.auth);
  const feed = await request.expect(200);
  return Object.fromEntries(
    (feed.body.posts as Post[]).map((post) => [
      post._id,
      {
        likes: post.likesCount,
        comments: post.commentsCount,
        likesListed: post.likes,
        commentsListed: post.comments.length,
      },
    ]),
  );
}

async function detailAs(viewer: TestUser | null, postId: string) {
  const request = t.http.get(`/api/posts/${postId}?view=compact`);
  if (viewer) request.set('Authorization', viewer.auth);
  const post = (await request.expect(200)).body.post as Post;
  return {
    likes: post.likesCount,
    comments: post.commentsCount,
    likesListed: post.likes,
    commentsListed: post.comments.length,
  };
}

function like(user: TestUser, postId: string) {
  return t.http.put('/api/like?view=compact').set('Authorization', user.auth).send({ postId });
}

function unlike(user: TestUser, postId: string) {
  return t.http.put('/api/unlike').set('Authorization', user.auth).send({ postId });
}

function comment(user: TestUser, postId: string, text: string) {
  return t.http.put('/api/comment').set('Authorization', user.auth).send({ postId, text });
}

function replyTo(user: TestUser, postId: string, parentId: string, text: string) {
  return t.http.put('/api/comment').set('Authorization', user.auth).send({ postId, text, parentId });
}

function deleteComment(user: TestUser, postId: string, commentId: string) {
  return t.http.delete(`/api/comment/${postId}/${commentId}`).set('Authorization', user.auth);
}

async function commentIdsBy(postId: string, author: TestUser): Promise<string[]> {
  const rows = await t.db
    .selectFrom('comments')
    .select('id')
    .where('post_id', '=', postId)
    .where('author_id', '=', author.id)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

describe('post counters after a mixed sequence of likes, comments and deletes', () => {
  it('stay equal to the real counts after every step', async () => {
    const [u0, u1, u2, u3, u4] = users as [TestUser, TestUser, TestUser, TestUser, TestUser];
    const p1 = await createPost(t, u0, { title: 'p1' });
    const p2 = await createPost(t, u1, { title: 'p2' });
    const p3 = await createPost(t, u2, { title: 'p3' });
    await expectCountersExact();

    const steps: [string, () => PromiseLike<{ status: number }>, number][] = [
      ['u1 likes p1', () => like(u1, p1._id), 200],
      ['u2 likes p1', () => like(u2, p1._id), 200],
      ['u1 likes p1 again', () => like(u1, p1._id), 200],
      ['u3 likes p2', () => like(u3, p2._id), 200],
      ['u1 unlikes p1', () => unlike(u1, p1._id), 200],
      ['u1 unlikes p1 again', () => unlike(u1, p1._id), 200],
      ['u4 unlikes p2 without having liked it', () => unlike(u4, p2._id), 200],
      ['u0 likes its own p1', () => like(u0, p1._id), 200],
      ['u1 comments on p1', () => comment(u1, p1._id, 'one'), 200],
      ['u1 comments on p1 again', () => comment(u1, p1._id, 'two'), 200],
      ['u1 comments on p1 a third time', () => comment(u1, p1._id, 'three'), 200],
      ['u2 comments on p1', () => comment(u2, p1._id, 'four'), 200],
      ['u3 comments on p2', () => comment(u3, p2._id, 'five'), 200],
      ['u4 comments on p3', () => comment(u4, p3._id, 'six'), 200],
      ['u3 likes p3', () => like(u3, p3._id), 200],
      ['an over-long comment is rejected', () => comment(u2, p2._id, 'x'.repeat(1001)), 400],
      ['u4 replies to u3 on p2', async () => replyTo(u4, p2._id, (await commentIdsBy(p2._id, u3))[0], 'seven'), 200],
      ['u4 replies again', async () => replyTo(u4, p2._id, (await commentIdsBy(p2._id, u3))[0], 'eight'), 200],
      [
        'u3 deletes its answered comment: a placeholder, neither a comment nor a commenter',
        async () => deleteComment(u3, p2._id, (await commentIdsBy(p2._id, u3))[0]),
        200,
      ],
      [
        'u4 deletes one reply: the placeholder stays for the other',
        async () => deleteComment(u4, p2._id, (await commentIdsBy(p2._id, u4))[0]),
        200,
      ],
    ];
    for (const [name, step, status] of steps) {
      const response = await step();
      expect({ name, status: response.status }).toEqual({ name, status });
      await expectCountersExact();
    }

    expect((await countersOfEveryPost()).stored).toEqual({
      [p1._id]: { likes: 2, comments: 4, commenters: 2 },
      [p2._id]: { likes: 1, comments: 1, commenters: 1 },
      [p3._id]: { likes: 1, comments: 1, commenters: 1 },
    });
    // p2 lists the placeholder and u4's reply under it.
    expect((await countersOfEveryPost()).rows[p2._id]).toBe(2);

    // u1 removes one of its three comments: still a commenter.
    const u1Comments = await commentIdsBy(p1._id, u1);
    await deleteComment(u1, p1._id, u1Comments[0]).expect(200);
    expect((await expectCountersExact())[p1._id]).toEqual({ likes: 2, comments: 3, commenters: 2 });

    // The post's author removes another, an admin the last: u1 is no longer a commenter.
    await deleteComment(u0, p1._id, u1Comments[1]).expect(200);
    await expectCountersExact();
    await deleteComment(admin, p1._id, u1Comments[2]).expect(200);
    expect((await expectCountersExact())[p1._id]).toEqual({ likes: 2, comments: 1, commenters: 1 });

    // A refused delete changes no counter.
    const [u2Comment] = await commentIdsBy(p1._id, u2);
    await deleteComment(u3, p1._id, u2Comment).expect(403);
    expect((await expectCountersExact())[p1._id]).toEqual({ likes: 2, comments: 1, commenters: 1 });

    // Deleting a post takes its likes and comments with it, leaving the others' counters alone.
    await t.http.delete(`/api/deletepost/${p1._id}`).set('Authorization', u0.auth).expect(200);
    const after = await expectCountersExact();
    expect(after).toEqual({
      [p2._id]: { likes: 1, comments: 1, commenters: 1 },
      [p3._id]: { likes: 1, comments: 1, commenters: 1 },
    });

    // Liking or commenting on the deleted post is refused and counts nothing.
    await like(u1, p1._id).expect(404);
    await comment(u1, p1._id, 'too late').expect(404);
    expect(await expectCountersExact()).toEqual(after);
  });
});

describe('post counters under concurrent requests', () => {
  it('count 20 concurrent likes from different users exactly', async () => {
    const post = await createPost(t, users[0], { title: 'popular' });
    const likers = users.slice(0, 20);

    const responses = await Promise.all(likers.map((user) => like(user, post._id)));

    expect(responses.map((r) => r.status)).toEqual(likers.map(() => 200));
    // Each reply is seen by its caller: their own like, whatever the others did meanwhile.
    expect(responses.map((r) => (r.body as Post).likes)).toEqual(likers.map((user) => [user.id]));
    const counts = await expectCountersExact();
    expect(counts[post._id]).toEqual({ likes: 20, comments: 0, commenters: 0 });
  });

  it('count a like sent twice at once by the same user only once', async () => {
    const post = await createPost(t, users[0], { title: 'double tap' });
    const likers = users.slice(0, 10);

    const responses = await Promise.all(likers.flatMap((user) => [like(user, post._id), like(user, post._id)]));

    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await expectCountersExact())[post._id]).toEqual({ likes: 10, comments: 0, commenters: 0 });
  });

  it('count concurrent comments and distinct commenters exactly', async () => {
    const post = await createPost(t, users[1], { title: 'discussed' });
    // 8 users, 3 comments each, all at once.
    const commenters = users.slice(0, 8);

    const responses = await Promise.all(
      commenters.flatMap((user, u) => [0, 1, 2].map((n) => comment(user, post._id, `comment ${u}.${n}`))),
    );

    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await expectCountersExact())[post._id]).toEqual({ likes: 0, comments: 24, commenters: 8 });
  });

  it('stay exact under concurrent likes, unlikes, comments and comment deletes on one post', async () => {
    const post = await createPost(t, users[2], { title: 'busy' });
    // Half the users like first and have a comment to delete.
    const veterans = users.slice(0, 10);
    for (const user of veterans) {
      await like(user, post._id).expect(200);
      await comment(user, post._id, 'old').expect(200);
    }
    const oldComments = await Promise.all(veterans.map(async (user) => (await commentIdsBy(post._id, user))[0]));
    const newcomers = users.slice(10, 22);

    const responses = await Promise.all([
      ...veterans.map((user) => unlike(user, post._id)),
      ...veterans.map((user, i) => deleteComment(user, post._id, oldComments[i])),
      ...newcomers.map((user) => like(user, post._id)),
      ...newcomers.map((user) => comment(user, post._id, 'new')),
      ...newcomers.slice(0, 6).map((user) => comment(user, post._id, 'newer')),
    ]);

    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await expectCountersExact())[post._id]).toEqual({ likes: 12, comments: 18, commenters: 12 });
  });

  it('match the table when the same user likes and unlikes at once, whichever wins', async () => {
    const post = await createPost(t, users[3], { title: 'undecided' });
    const fickle = users.slice(0, 20);

    const responses = await Promise.all(
      fickle.flatMap((user) => [like(user, post._id), unlike(user, post._id), like(user, post._id)]),
    );

    expect(responses.every((r) => r.status === 200)).toBe(true);
    const counts = (await expectCountersExact())[post._id];
    expect(counts.likes).toBeGreaterThanOrEqual(0);
    expect(counts.likes).toBeLessThanOrEqual(20);
  });
});

describe('likes and comments racing the deletion of their post', () => {
  it('answer 200 or 404, never a server error, and leave no like or comment behind', async () => {
    for (let round = 0; round < 5; round += 1) {
      const author = users[round];
      const post = await createPost(t, author, { title: `doomed ${round}` });
      const others = users.filter((user) => user !== author).slice(0, 12);

      const [removal, ...responses] = await Promise.all([
        t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', author.auth),
        ...others.flatMap((user) => [like(user, post._id), comment(user, post._id, 'racing')]),
      ]);

      expect(removal.status).toBe(200);
      const unexpected = responses
        .filter((r) => r.status !== 200 && r.status !== 404)
        .map((r) => `${r.status} ${JSON.stringify(r.body)}`);
      expect(unexpected).toEqual([]);
      await expectCountersExact();
    }
  });
});
