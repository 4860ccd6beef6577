import type { Comment, Post } from '@techit/contract/api-types';
import { COMMENT_PAGE, LIST_COMMENTS_PREVIEW } from '@techit/contract/limits';
import { createPost, createUser, type TestUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

/**
 * The spec's Post, by default: `likes` is everyone who liked it and `comments` the whole
 * conversation, in every reply that carries the post, whoever asks. `?view=compact` is the lean
 * form the web app asks for (docs/decisions/006-lean-post-replies.md).
 */
let t: TestApp;
let author: TestUser;
let follower: TestUser;
let likers: TestUser[];

beforeAll(async () => {
  t = await startTestApp();
  author = await createUser(t);
  follower = await createUser(t);
  likers = [await createUser(t), await createUser(t), await createUser(t)];
  for (const reader of [follower, ...likers])
    await t.http.put('/api/follow').set('Authorization', reader.auth).send({ followId: author.id }).expect(200);
});

afterAll(() => t.close());

function like(user: TestUser, postId: string, path = '/api/like') {
  return t.http.put(path).set('Authorization', user.auth).send({ postId }).expect(200);
}

function comment(user: TestUser, postId: string, text: string, path = '/api/comment') {
  return t.http.put(path).set('Authorization', user.auth).send({ postId, text }).expect(200);
}

function get(path: string, viewer?: TestUser) {
  const request = t.http.get(path);
  return (viewer ? request.set('Authorization', viewer.auth) : request).expect(200);
}

function findIn(posts: Post[], postId: string): Post {
  const post = posts.find((candidate) => candidate._id === postId);
  if (!post) throw new Error(`post ${postId} is not in the list`);
  return post;
}

describe('a post three users like, in the full view (the default)', () => {
  let post: Post;
  let likerIds: string[];

  beforeAll(async () => {
    post = await createPost(t, author, { title: 'Liked by three' });
    for (const liker of likers) await like(liker, post._id);
    likerIds = likers.map((user) => user.id).sort();
  });

  /** Every read that shows the post, as the given viewer sees it. */
  function reads(viewer?: TestUser): [string, () => Promise<Post>][] {
    return [
      ['the for-you feed', async () => findIn((await get('/api/posts?limit=50', viewer)).body.posts, post._id)],
      [
        'the following feed',
        async () =>
          findIn((await get(`/api/posts?feed=following&userId=${follower.id}&limit=50`, viewer)).body.posts, post._id),
      ],
      ['GET /api/posts/:id', async () => (await get(`/api/posts/${post._id}`, viewer)).body.post],
      [
        'GET /api/userposts/:id',
        async () => findIn((await get(`/api/userposts/${author.id}?limit=50`, viewer)).body.userPosts, post._id),
      ],
    ];
  }

  it.each([
    ['a visitor', () => undefined],
    ['a signed-in reader who likes it', () => likers[1]],
    ['a signed-in reader who does not', () => follower],
  ])('lists exactly the three likers in every read, for %s', async (_name, viewer) => {
    for (const [where, read] of reads(viewer())) {
      const seen = await read();
      expect({ where, likes: [...seen.likes].sort(), likesCount: seen.likesCount }).toEqual({
        where,
        likes: likerIds,
        likesCount: 3,
      });
    }
  });

  it('lists them in the following feed of the follower too', async () => {
    const feed = await get('/api/posts?feed=following&limit=50', follower);
    expect([...findIn(feed.body.posts, post._id).likes].sort()).toEqual(likerIds);
  });

  it('lists them in the replies to a like, a comment and an edit', async () => {
    const again = await like(likers[0], post._id); // liking twice changes nothing
    expect({ ...again.body, likes: [...again.body.likes].sort() }).toEqual({
      _id: post._id,
      likes: likerIds,
      likesCount: 3,
    });
    const commented = (await comment(author, post._id, 'Thanks all')).body as Post;
    expect([...commented.likes].sort()).toEqual(likerIds);
    const edited = await t.http
      .put(`/api/editpost/${post._id}`)
      .set('Authorization', author.auth)
      .send({ title: 'Liked by three', desc: 'Edited', category: 'Doubt' })
      .expect(200);
    expect([...(edited.body as Post).likes].sort()).toEqual(likerIds);
  });

  it('answers a like with everyone who now likes it, and an unlike with who is left', async () => {
    const other = await createPost(t, author);
    await like(likers[0], other._id);
    const second = await like(likers[1], other._id);
    expect({ ...second.body, likes: [...second.body.likes].sort() }).toEqual({
      _id: other._id,
      likes: [likers[0].id, likers[1].id].sort(),
      likesCount: 2,
    });
    const unliked = await t.http.put('/api/unlike').set('Authorization', likers[0].auth).send({ postId: other._id });
    expect(unliked.body).toEqual({ _id: other._id, likes: [likers[1].id], likesCount: 1 });
  });

  it('changes nothing when a user who has not liked it unlikes it', async () => {
    const before = await snapshot(t.db);
    const reply = await t.http
      .put('/api/unlike')
      .set('Authorization', follower.auth)
      .send({ postId: post._id })
      .expect(200);
    expect({ ...reply.body, likes: [...reply.body.likes].sort() }).toEqual({
      _id: post._id,
      likes: likerIds,
      likesCount: 3,
    });
    expect(await snapshot(t.db)).toEqual(before);
    const seen = (await get(`/api/posts/${post._id}`)).body.post as Post;
    expect({ likes: [...seen.likes].sort(), likesCount: seen.likesCount }).toEqual({ likes: likerIds, likesCount: 3 });
  });

  it('answers a deleted post with its likers as they were', async () => {
    const doomed = await createPost(t, author);
    for (const liker of likers) await like(liker, doomed._id);
    const deleted = await t.http.delete(`/api/deletepost/${doomed._id}`).set('Authorization', author.auth).expect(200);
    expect([...(deleted.body as Post).likes].sort()).toEqual(likerIds);
  });

  it('lists only the viewer in view=compact, on every route', async () => {
    const viewer = likers[2];
    for (const [where, path] of [
      ['feed', '/api/posts?limit=50&view=compact'],
      ['following', `/api/posts?feed=following&userId=${follower.id}&limit=50&view=compact`],
      ['userposts', `/api/userposts/${author.id}?limit=50&view=compact`],
    ]) {
      const body = (await get(path, viewer)).body;
      const seen = findIn(body.posts ?? body.userPosts, post._id);
      expect({ where, likes: seen.likes, likesCount: seen.likesCount }).toEqual({
        where,
        likes: [viewer.id],
        likesCount: 3,
      });
    }
    expect((await get(`/api/posts/${post._id}?view=compact`)).body.post.likes).toEqual([]);
    const liked = await like(viewer, post._id, '/api/like?view=compact');
    expect(liked.body).toEqual({ _id: post._id, likes: [viewer.id], likesCount: 3 });
  });
});

describe('a post with 9 comments', () => {
  let post: Post;
  const texts = Array.from({ length: 9 }, (_, i) => `comment ${i + 1}`);

  beforeAll(async () => {
    post = await createPost(t, author, { title: 'Nine comments' });
    for (const [i, text] of texts.entries()) await comment(likers[i % 3], post._id, text);
  });

  it('lists all 9, oldest first, with their authors, in every feed and list (the default)', async () => {
    for (const [where, path, listed] of [
      ['for-you', '/api/posts?limit=50', 'posts'],
      ['following', `/api/posts?feed=following&userId=${follower.id}&limit=50`, 'posts'],
      ['userposts', `/api/userposts/${author.id}?limit=50`, 'userPosts'],
    ]) {
      const seen = findIn((await get(path)).body[listed], post._id);
      expect({ where, texts: seen.comments.map((c) => c.text), count: seen.commentsCount }).toEqual({
        where,
        texts,
        count: 9,
      });
      expect(seen.comments[0].postedBy).toEqual({
        _id: likers[0].id,
        userName: likers[0].userName,
        pic: expect.any(String),
      });
    }
  });

  it(`lists the ${LIST_COMMENTS_PREVIEW} newest in view=compact lists, and counts all 9`, async () => {
    const seen = findIn((await get('/api/posts?limit=50&view=compact')).body.posts, post._id);
    expect({ texts: seen.comments.map((c) => c.text), count: seen.commentsCount }).toEqual({
      texts: texts.slice(-LIST_COMMENTS_PREVIEW),
      count: 9,
    });
  });

  it('answers a comment and a comment deletion with the whole conversation', async () => {
    const added = (await comment(author, post._id, 'the tenth')).body as Post;
    expect(added.comments.map((c) => c.text)).toEqual([...texts, 'the tenth']);
    const tenth = added.comments[9];
    const removed = await t.http
      .delete(`/api/comment/${post._id}/${tenth._id}`)
      .set('Authorization', author.auth)
      .expect(200);
    expect((removed.body as Post).comments.map((c) => c.text)).toEqual(texts);
    expect((removed.body as Post).commentsCount).toBe(9);
  });
});

describe("a long thread's comments, a page at a time", () => {
  let post: Post;
  const total = COMMENT_PAGE.defaultSize + 12;

  beforeAll(async () => {
    post = await createPost(t, author, { title: 'Long thread' });
    for (let i = 0; i < total; i += 1) await comment(likers[i % 3], post._id, `reply ${i}`);
  });

  it("answers the bare GET /api/posts/:id/comments (the spec's call) with the whole conversation", async () => {
    const all = (await get(`/api/posts/${post._id}/comments`)).body;
    expect(all.comments.map((c: Comment) => c.text)).toEqual(Array.from({ length: total }, (_, i) => `reply ${i}`));
    expect(all.nextCursor).toBeNull();
  });

  it(`answers GET /api/posts/:id/comments?limit=${COMMENT_PAGE.defaultSize} a page at a time, oldest first, chained by nextCursor`, async () => {
    const first = (await get(`/api/posts/${post._id}/comments?limit=${COMMENT_PAGE.defaultSize}`)).body;
    expect(first.comments.map((c: Comment) => c.text)).toEqual(
      Array.from({ length: COMMENT_PAGE.defaultSize }, (_, i) => `reply ${i}`),
    );
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await get(`/api/posts/${post._id}/comments?cursor=${first.nextCursor}`)).body;
    expect(second).toEqual({
      comments: expect.any(Array),
      nextCursor: null,
    });
    expect(second.comments.map((c: Comment) => c.text)).toEqual(
      Array.from({ length: 12 }, (_, i) => `reply ${COMMENT_PAGE.defaultSize + i}`),
    );
  });

  it('takes a smaller limit, and refuses one over the maximum or a forged cursor with 400', async () => {
    const page = (await get(`/api/posts/${post._id}/comments?limit=7`)).body;
    expect(page.comments).toHaveLength(7);
    const next = (await get(`/api/posts/${post._id}/comments?limit=7&cursor=${page.nextCursor}`)).body;
    expect(next.comments[0].text).toBe('reply 7');
    const tooMany = await t.http.get(`/api/posts/${post._id}/comments?limit=${COMMENT_PAGE.maxSize + 1}`).expect(400);
    expect(tooMany.body).toEqual({ error: `limit must be at most ${COMMENT_PAGE.maxSize}` });
    const forged = await t.http.get(`/api/posts/${post._id}/comments?cursor=nonsense`).expect(400);
    expect(forged.body).toEqual({ error: 'That cursor is not valid; start again from the first page' });
  });

  it('carries every comment in the full view of the post, and the first page with its cursor in view=compact', async () => {
    const full = (await get(`/api/posts/${post._id}`)).body.post as Post;
    expect(full.comments).toHaveLength(total);
    expect(full).not.toHaveProperty('commentsNextCursor');
    const compact = (await get(`/api/posts/${post._id}?view=compact`)).body.post as Post;
    expect(compact.comments).toHaveLength(COMMENT_PAGE.defaultSize);
    expect(compact.commentsCount).toBe(total);
    const rest = (await get(`/api/posts/${post._id}/comments?cursor=${compact.commentsNextCursor}`)).body;
    expect([...compact.comments, ...rest.comments]).toEqual(full.comments);
    const added = (await comment(author, post._id, 'the newest', '/api/comment?view=compact')).body as Post;
    expect({ shown: added.comments.length, count: added.commentsCount, more: typeof added.commentsNextCursor }).toEqual(
      {
        shown: COMMENT_PAGE.defaultSize,
        count: total + 1,
        more: 'string',
      },
    );
  });
});
