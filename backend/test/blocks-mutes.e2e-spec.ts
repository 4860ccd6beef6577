import type { Comment, Notice, Post, RelatedUsersReply } from '@techit/contract/api-types';
import type { Response } from 'supertest';
import { BLOCKED } from '../src/blocks/block-rules';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

/**
 * Blocks and mutes (issue 20, docs/decisions/048-blocks-and-mutes.md): a blocked user cannot
 * follow, comment on, reply to, like or mention the blocker (403, nothing written), a block ends
 * the follows between the two; a muted user's posts, notices and comments leave the muter's
 * feeds, search and notices list (comments come flagged `muted: true`), and nobody else is affected.
 */
const MISSING_ID = '0123456789abcdef01234567';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function put(user: TestUser | null, path: string, body: object) {
  const request = t.http.put(path);
  return (user ? request.set('Authorization', user.auth) : request).send(body);
}

function get(user: TestUser | null, path: string) {
  const request = t.http.get(path);
  return user ? request.set('Authorization', user.auth) : request;
}

/** Sends a request that must fail: its status and `{ error }`, and not one row changed. */
async function expectRejected(send: () => PromiseLike<Response>, status: number, error?: string): Promise<void> {
  const before = await snapshot(t.db);
  const response = await send();
  expect({ status: response.status, body: response.body as unknown }).toEqual({
    status,
    body: { error: error ?? expect.any(String) },
  });
  expect(await snapshot(t.db)).toEqual(before);
}

async function ok(response: PromiseLike<Response>): Promise<Response> {
  const answered = await response;
  expect({ status: answered.status, body: answered.body as unknown }).toEqual({
    status: expect.any(Number),
    body: answered.body as unknown,
  });
  if (answered.status >= 300) throw new Error(`${answered.status} ${JSON.stringify(answered.body)}`);
  return answered;
}

async function comment(user: TestUser, postId: string, text: string, parentId?: string): Promise<Comment> {
  const response = await ok(put(user, '/api/comment', { postId, text, ...(parentId ? { parentId } : {}) }));
  const mine = (response.body as Post).comments.filter((c) => c.text === text);
  expect(mine).toHaveLength(1);
  return mine[0];
}

async function followersOf(user: TestUser): Promise<{ followers: string[]; following: string[] }> {
  const response = await ok(get(null, `/api/user/${user.id}`));
  const body = response.body as { user: { followers: string[]; following: string[] } };
  return { followers: body.user.followers, following: body.user.following };
}

describe('PUT /api/block, /api/unblock, /api/mute, /api/unmute: refusals', () => {
  let me: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [me, other] = await Promise.all([createUser(t), createUser(t)]);
  });

  it.each(['/api/block', '/api/unblock', '/api/mute', '/api/unmute'])(
    '%s refuses a malformed id, a missing one, yourself (400), an unknown user (404) and a visitor (401), writing nothing',
    async (path) => {
      await expectRejected(() => put(me, path, { userId: 'not-an-id' }), 400, 'userId must be a user id');
      await expectRejected(() => put(me, path, {}), 400, 'userId is required');
      await expectRejected(() => put(me, path, { userId: 42 }), 400);
      await expectRejected(() => put(me, path, { userId: me.id }), 400);
      await expectRejected(() => put(me, path, { userId: MISSING_ID }), 404, "This user doesn't exist");
      await expectRejected(() => put(null, path, { userId: other.id }), 401);
    },
  );

  it('GET /api/blocks and /api/mutes need a token and refuse a bad cursor or limit', async () => {
    for (const path of ['/api/blocks', '/api/mutes']) {
      expect((await get(null, path)).status).toBe(401);
      expect((await get(me, `${path}?cursor=nonsense`)).status).toBe(400);
      expect((await get(me, `${path}?limit=0`)).status).toBe(400);
      expect((await get(me, `${path}?limit=51`)).status).toBe(400);
    }
  });
});

describe('blocking', () => {
  it('is idempotent, private, listed newest first by cursor, and undone by unblock (idempotent too)', async () => {
    const [me, stranger, ...others] = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(t)));
    for (const other of others) {
      expect((await ok(put(me, '/api/block', { userId: other.id }))).body).toEqual({
        userId: other.id,
        blocked: true,
      });
    }
    // Blocking again keeps the first row and its time.
    const before = await snapshot(t.db);
    expect((await ok(put(me, '/api/block', { userId: others[0].id }))).body).toEqual({
      userId: others[0].id,
      blocked: true,
    });
    expect(await snapshot(t.db)).toEqual(before);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await ok(get(me, `/api/blocks?limit=2${cursor ? `&cursor=${cursor}` : ''}`)))
        .body as RelatedUsersReply;
      expect(page.users.length).toBeLessThanOrEqual(2);
      for (const user of page.users)
        expect(user).toEqual({
          _id: expect.any(String),
          userName: expect.any(String),
          pic: expect.any(String),
          since: expect.any(String),
        });
      seen.push(...page.users.map((user) => user._id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...others].reverse().map((user) => user.id));
    // Only the caller's own list; the other list is apart.
    expect((await ok(get(stranger, '/api/blocks'))).body).toEqual({ users: [], nextCursor: null });
    expect((await ok(get(me, '/api/mutes'))).body).toEqual({ users: [], nextCursor: null });

    expect((await ok(put(me, '/api/unblock', { userId: others[1].id }))).body).toEqual({
      userId: others[1].id,
      blocked: false,
    });
    expect((await ok(put(me, '/api/unblock', { userId: others[1].id }))).body).toEqual({
      userId: others[1].id,
      blocked: false,
    });
    expect(((await ok(get(me, '/api/blocks'))).body as RelatedUsersReply).users.map((user) => user._id)).toEqual(
      [others[2], others[0]].map((user) => user.id),
    );
  });

  it('ends the follows between the two, both ways, and withdraws their unread follow notifications', async () => {
    const [alice, bob, carol] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    await ok(put(alice, '/api/follow', { followId: bob.id }));
    await ok(put(bob, '/api/follow', { followId: alice.id }));
    await ok(put(carol, '/api/follow', { followId: alice.id }));
    expect((await followersOf(alice)).followers.sort()).toEqual([bob.id, carol.id].sort());

    await ok(put(alice, '/api/block', { userId: bob.id }));

    expect(await followersOf(alice)).toEqual({ followers: [carol.id], following: [] });
    expect(await followersOf(bob)).toEqual({ followers: [], following: [] });
    const followNotifications = await t.db
      .selectFrom('notifications')
      .select(['user_id'])
      .where('kind', '=', 'follow')
      .where('user_id', 'in', [alice.id, bob.id])
      .execute();
    // carol's follow of alice stays, and its notification.
    expect(followNotifications).toEqual([{ user_id: alice.id }]);
  });

  describe('what the blocked user can no longer do to the blocker (403, nothing written)', () => {
    let alice: TestUser;
    let bob: TestUser;
    let carol: TestUser;
    let alicePost: Post;
    let carolPost: Post;
    let aliceComment: Comment;
    let bobPost: Post;
    let bobComment: Comment;

    beforeAll(async () => {
      [alice, bob, carol] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
      alicePost = await createPost(t, alice);
      carolPost = await createPost(t, carol);
      bobPost = await createPost(t, bob);
      aliceComment = await comment(alice, carolPost._id, 'alice says hello');
      bobComment = await comment(bob, carolPost._id, 'bob says hello');
      await ok(put(alice, '/api/block', { userId: bob.id }));
    });

    it('follow', async () => {
      await expectRejected(() => put(bob, '/api/follow', { followId: alice.id }), 403, BLOCKED.follow);
    });

    it("comment on the blocker's post, and reply to a comment on it", async () => {
      await expectRejected(() => put(bob, '/api/comment', { postId: alicePost._id, text: 'hi' }), 403, BLOCKED.comment);
      // With an Idempotency-Key too: a refused write keeps no key (decision 022), so nothing at all.
      await expectRejected(
        () =>
          t.http
            .put('/api/comment')
            .set('Authorization', bob.auth)
            .set('Idempotency-Key', `blocked-${bob.id}`)
            .send({ postId: alicePost._id, text: 'hi' }),
        403,
        BLOCKED.comment,
      );
      expect(await t.db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', bob.id).execute()).toEqual([]);
      const carolOnAlice = await comment(carol, alicePost._id, 'carol on alice');
      await expectRejected(
        () => put(bob, '/api/comment', { postId: alicePost._id, text: 'hi', parentId: carolOnAlice._id }),
        403,
      );
    });

    it("reply to the blocker's comment on someone else's post", async () => {
      await expectRejected(
        () => put(bob, '/api/comment', { postId: carolPost._id, text: 'hi', parentId: aliceComment._id }),
        403,
        BLOCKED.reply,
      );
    });

    it("like the blocker's post (a like notifies its author)", async () => {
      await expectRejected(() => put(bob, '/api/like', { postId: alicePost._id }), 403, BLOCKED.like);
      await expectRejected(() => put(bob, '/api/like?view=compact', { postId: alicePost._id }), 403, BLOCKED.like);
    });

    it('mention the blocker: in a post, a comment, a notice, an edited comment and an edited post', async () => {
      const refusal = `@${alice.userName} has blocked you: you cannot mention them`;
      const mention = `see @${alice.userName} here`;
      await expectRejected(
        () => t.http.post('/api/createpost').set('Authorization', bob.auth).send({ title: 'x', desc: mention }),
        403,
        refusal,
      );
      await expectRejected(
        () =>
          t.http
            .post('/api/createpost')
            .set('Authorization', bob.auth)
            .send({ title: 'x', desc: 'plain', body: mention }),
        403,
        refusal,
      );
      await expectRejected(() => put(bob, '/api/comment', { postId: carolPost._id, text: mention }), 403, refusal);
      await expectRejected(
        () =>
          t.http.post('/api/createnotice').set('Authorization', bob.auth).send({ desc: mention, tags: [], links: [] }),
        403,
        refusal,
      );
      await expectRejected(
        () => put(bob, `/api/comment/${carolPost._id}/${bobComment._id}`, { text: mention }),
        403,
        refusal,
      );
      await expectRejected(
        () => put(bob, `/api/editpost/${bobPost._id}`, { title: bobPost.title, category: 'Doubt', desc: mention }),
        403,
        refusal,
      );
    });

    it('still lets the blocked user do all of it to others, and the blocker to them', async () => {
      await comment(bob, carolPost._id, `thanks @${carol.userName}`);
      await ok(put(bob, '/api/like', { postId: carolPost._id }));
      await comment(alice, bobPost._id, 'the blocker may still write here');
      await ok(put(carol, '/api/comment', { postId: alicePost._id, text: 'carol is fine' }));
    });

    it('lets them again once unblocked (the ended follows stay ended)', async () => {
      await ok(put(alice, '/api/unblock', { userId: bob.id }));
      await ok(put(bob, '/api/like', { postId: alicePost._id }));
      await comment(bob, alicePost._id, `hello again @${alice.userName}`);
      await ok(put(bob, '/api/follow', { followId: alice.id }));
      expect((await followersOf(alice)).followers).toEqual([bob.id]);
    });
  });
});

describe('muting', () => {
  let dave: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let bobPost: Post;
  let carolPost: Post;
  let bobNotice: Notice;
  let bobComment: Comment;
  let carolComment: Comment;
  const tag = `mutetag${process.pid}`;
  const word = `zebrafish${process.pid}`;

  const ids = (posts: { _id: string }[]) => posts.map((post) => post._id);

  beforeAll(async () => {
    [dave, bob, carol] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    bobPost = await createPost(t, bob, { title: `bob ${word}`, tags: [tag] });
    carolPost = await createPost(t, carol, { title: `carol ${word}`, tags: [tag] });
    bobNotice = await createNotice(t, bob, { desc: `bob notice ${word}` });
    await createNotice(t, carol, { desc: `carol notice ${word}` });
    bobComment = await comment(bob, carolPost._id, 'bob comments');
    carolComment = await comment(carol, carolPost._id, 'carol answers', bobComment._id);
    await ok(put(dave, '/api/follow', { followId: bob.id }));
    await ok(put(dave, '/api/follow', { followId: carol.id }));
    await ok(put(dave, `/api/tags/${tag}/follow`, {}));
  });

  /** The posts (ids) each place shows the reader: every feed, the top posts, search. */
  async function postsSeenBy(reader: TestUser | null): Promise<Record<string, string[]>> {
    const feeds: Record<string, string> = {
      forYou: '/api/posts?limit=50',
      forYouCompact: '/api/posts?limit=50&view=compact',
      following: reader ? '/api/posts?feed=following&limit=50' : `/api/posts?feed=following&userId=${dave.id}&limit=50`,
      hot: '/api/posts?feed=hot&limit=50',
      tag: `/api/posts?feed=tag&tag=${tag}&limit=50`,
      top: '/api/top-posts?window=day',
      search: `/api/search?q=${word}`,
    };
    if (reader) feeds.tags = '/api/posts?feed=tags&limit=50';
    const seen: Record<string, string[]> = {};
    for (const [name, path] of Object.entries(feeds)) {
      const body = (await ok(get(reader, path))).body as { posts?: Post[]; results?: Post[] } | Post[];
      const list = Array.isArray(body) ? body : (body.posts ?? body.results ?? []);
      seen[name] = ids(list).filter((id) => id === bobPost._id || id === carolPost._id);
    }
    return seen;
  }

  async function noticesSeenBy(reader: TestUser | null): Promise<Record<string, string[]>> {
    const all = (await ok(get(reader, '/api/allnotices?limit=50'))).body as { notices: Notice[] };
    const found = (await ok(get(reader, `/api/search?q=${word}&type=notices`))).body as { results: Notice[] };
    return {
      all: ids(all.notices).filter((id) => id === bobNotice._id),
      search: ids(found.results).filter((id) => id === bobNotice._id),
    };
  }

  it("hides the muted user's posts from every feed, top posts and search, and their notices, from the muter only", async () => {
    const both = [bobPost._id, carolPost._id].sort();
    const everywhere = (posts: string[]) => ({
      forYou: posts,
      forYouCompact: posts,
      following: posts,
      hot: expect.arrayContaining(posts) as unknown as string[],
      tag: posts,
      tags: posts,
      top: expect.arrayContaining(posts) as unknown as string[],
      search: expect.arrayContaining(posts) as unknown as string[],
    });
    const sorted = async (reader: TestUser | null) =>
      Object.fromEntries(Object.entries(await postsSeenBy(reader)).map(([k, v]) => [k, [...v].sort()]));
    expect(await sorted(dave)).toEqual(everywhere(both));
    expect(await noticesSeenBy(dave)).toEqual({ all: [bobNotice._id], search: [bobNotice._id] });

    expect((await ok(put(dave, '/api/mute', { userId: bob.id }))).body).toEqual({ userId: bob.id, muted: true });

    expect(await sorted(dave)).toEqual(everywhere([carolPost._id]));
    expect(await noticesSeenBy(dave)).toEqual({ all: [], search: [] });
    // Nobody else is affected: another reader, a visitor, the muted user.
    const { tags: _tags, ...visitorPlaces } = everywhere(both);
    expect(await sorted(null)).toEqual(visitorPlaces);
    // carol follows nobody and no tag.
    expect(await sorted(carol)).toEqual({ ...everywhere(both), following: [], tags: [] });
    expect(await noticesSeenBy(null)).toEqual({ all: [bobNotice._id], search: [bobNotice._id] });
    // The muted user's own profile still shows their posts and notices: opening it asks for them.
    const profile = (await ok(get(dave, `/api/userposts/${bob.id}`))).body as { userPosts: Post[] };
    expect(ids(profile.userPosts)).toEqual([bobPost._id]);
    const notices = (await ok(get(dave, `/api/usernotices/${bob.id}`))).body as { notices: Notice[] };
    expect(ids(notices.notices)).toEqual([bobNotice._id]);

    await ok(put(dave, '/api/unmute', { userId: bob.id }));
    expect(await sorted(dave)).toEqual(everywhere(both));
    expect(await noticesSeenBy(dave)).toEqual({ all: [bobNotice._id], search: [bobNotice._id] });
  });

  it("flags the muted user's comments muted: true for the muter in every thread, for nobody else", async () => {
    await ok(put(dave, '/api/mute', { userId: bob.id }));
    const flags = (comments: Comment[]) =>
      comments
        .filter((c) => c._id === bobComment._id || c._id === carolComment._id)
        .map((c) => ({ _id: c._id, muted: c.muted }));
    const expected = (mutedBob: boolean) => [
      { _id: bobComment._id, muted: mutedBob ? true : undefined },
      { _id: carolComment._id, muted: undefined },
    ];
    const places = async (reader: TestUser | null) => {
      const read = async (path: string) => (await ok(get(reader, path))).body as unknown;
      return {
        conversation: flags(((await read(`/api/posts/${carolPost._id}/comments`)) as { comments: Comment[] }).comments),
        paged: flags(
          ((await read(`/api/posts/${carolPost._id}/comments?limit=10`)) as { comments: Comment[] }).comments,
        ),
        thread: flags(
          ((await read(`/api/posts/${carolPost._id}/comments?thread=${bobComment._id}`)) as { comments: Comment[] })
            .comments,
        ),
        full: flags(((await read(`/api/posts/${carolPost._id}`)) as { post: Post }).post.comments),
        compact: flags(((await read(`/api/posts/${carolPost._id}?view=compact`)) as { post: Post }).post.comments),
        feed: flags(
          ((await read(`/api/userposts/${carol.id}?view=compact`)) as { userPosts: Post[] }).userPosts.find(
            (post) => post._id === carolPost._id,
          )?.comments ?? [],
        ),
        feedFull: flags(
          ((await read(`/api/userposts/${carol.id}`)) as { userPosts: Post[] }).userPosts.find(
            (post) => post._id === carolPost._id,
          )?.comments ?? [],
        ),
      };
    };
    const all = (mutedBob: boolean) => ({
      conversation: expected(mutedBob),
      paged: expected(mutedBob),
      thread: expected(mutedBob),
      full: expected(mutedBob),
      compact: expected(mutedBob),
      feed: expected(mutedBob),
      feedFull: expected(mutedBob),
    });
    expect(await places(dave)).toEqual(all(true));
    expect(await places(carol)).toEqual(all(false));
    expect(await places(null)).toEqual(all(false));
    // The key is absent (not false) when not muted: every other reply keeps its exact shape.
    const visitorComments = (
      (await ok(get(null, `/api/posts/${carolPost._id}/comments`))).body as {
        comments: Comment[];
      }
    ).comments;
    expect(visitorComments.every((c) => !('muted' in c))).toBe(true);
    // A write's reply describes the writer: dave's own comment reply flags bob's comment too.
    const written = (await ok(put(dave, '/api/comment', { postId: carolPost._id, text: 'dave was here' })))
      .body as Post;
    expect(flags(written.comments)).toEqual(expected(true));
    await ok(put(dave, '/api/unmute', { userId: bob.id }));
    expect(await places(dave)).toEqual(all(false));
  });

  it('is idempotent, listed, private, and the muted user is not told', async () => {
    const [muter, muted] = await Promise.all([createUser(t), createUser(t)]);
    const notificationsBefore = await t.db.selectFrom('notifications').selectAll().execute();
    expect((await ok(put(muter, '/api/mute', { userId: muted.id }))).body).toEqual({ userId: muted.id, muted: true });
    const before = await snapshot(t.db);
    await ok(put(muter, '/api/mute', { userId: muted.id }));
    expect(await snapshot(t.db)).toEqual(before);
    const list = (await ok(get(muter, '/api/mutes'))).body as RelatedUsersReply;
    expect(list).toEqual({
      users: [{ _id: muted.id, userName: muted.userName, pic: expect.any(String), since: expect.any(String) }],
      nextCursor: null,
    });
    expect((await ok(get(muted, '/api/mutes'))).body).toEqual({ users: [], nextCursor: null });
    expect(await t.db.selectFrom('notifications').selectAll().execute()).toEqual(notificationsBefore);
    // Muting is no block: the muted user may still follow, comment and like.
    await ok(put(muted, '/api/follow', { followId: muter.id }));
    await ok(put(muter, '/api/unmute', { userId: muted.id }));
    await ok(put(muter, '/api/unmute', { userId: muted.id }));
    expect((await ok(get(muter, '/api/mutes'))).body).toEqual({ users: [], nextCursor: null });
  });
});

describe("GET /api/user/:id: the reader's block and mute of the profile's user (viewer)", () => {
  it('says whether the reader blocks and mutes them, for the reader only; absent for visitors and on the own profile', async () => {
    const [reader, other, bystander] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const viewerOf = async (user: TestUser | null, profile: TestUser) =>
      ((await ok(get(user, `/api/user/${profile.id}`))).body as { viewer?: unknown }).viewer;

    expect(await viewerOf(reader, other)).toEqual({ blocks: false, mutes: false });
    await ok(put(reader, '/api/block', { userId: other.id }));
    expect(await viewerOf(reader, other)).toEqual({ blocks: true, mutes: false });
    await ok(put(reader, '/api/mute', { userId: other.id }));
    expect(await viewerOf(reader, other)).toEqual({ blocks: true, mutes: true });
    await ok(put(reader, '/api/unblock', { userId: other.id }));
    expect(await viewerOf(reader, other)).toEqual({ blocks: false, mutes: true });

    // Only the reader's own relations: the other way round and anyone else read false.
    expect(await viewerOf(other, reader)).toEqual({ blocks: false, mutes: false });
    expect(await viewerOf(bystander, other)).toEqual({ blocks: false, mutes: false });
    // No field at all for a visitor, and none on one's own profile (nothing to block there).
    const visitor = await ok(get(null, `/api/user/${other.id}`));
    expect(Object.keys(visitor.body as object)).toEqual(['user']);
    const own = await ok(get(reader, `/api/user/${reader.id}`));
    expect(Object.keys(own.body as object)).toEqual(['user']);
  });

  it('answers a stale or bad token as a visitor (no viewer), like the other reads that take a token optionally', async () => {
    const other = await createUser(t);
    const response = await t.http.get(`/api/user/${other.id}`).set('Authorization', 'Bearer not-a-token');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body as object)).toEqual(['user']);
  });
});

/** The user's notifications as rows: kind, what it points at, unread, how many actors and who. */
async function notificationsOf(user: TestUser) {
  const rows = await t.db
    .selectFrom('notifications')
    .select(['id', 'kind', 'post_id', 'comment_id', 'notice_id', 'read', 'actors_count'])
    .where('user_id', '=', user.id)
    .orderBy('id')
    .execute();
  const actors = await t.db
    .selectFrom('notification_actors')
    .select(['notification_id', 'actor_id'])
    .where('notification_id', 'in', rows.map((row) => row.id).concat(['none']))
    .execute();
  return rows.map((row) => ({
    ...row,
    actors: actors
      .filter((actor) => actor.notification_id === row.id)
      .map((actor) => actor.actor_id)
      .sort(),
  }));
}

describe('a mute silences the muted user towards the muter (decision 048)', () => {
  it("writes no notification for the muter from the muted user's like, comment, reply, follow or mentions; others are notified as before", async () => {
    const [muter, muted, other] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const muterPost = await createPost(t, muter);
    const otherPost = await createPost(t, other);
    const muterComment = await comment(muter, otherPost._id, 'the muter on the other post');
    // Someone else's like opens the muter's like group first: the muted user's like must not join it.
    await ok(put(other, '/api/like', { postId: muterPost._id }));
    await ok(put(muter, '/api/mute', { userId: muted.id }));
    const before = await notificationsOf(muter);
    expect(before).toEqual([expect.objectContaining({ kind: 'like', actors_count: 1, actors: [other.id] })]);

    await ok(put(muted, '/api/like', { postId: muterPost._id }));
    await comment(muted, muterPost._id, 'a comment on the muter’s post');
    await comment(muted, otherPost._id, 'a reply to the muter', muterComment._id);
    await comment(muted, otherPost._id, `a mention of @${muter.userName} in a comment`);
    await ok(put(muted, '/api/follow', { followId: muter.id }));
    await ok(
      t.http
        .post('/api/createpost')
        .set('Authorization', muted.auth)
        .send({ title: 'a mention', desc: `hello @${muter.userName}` }),
    );
    await createNotice(t, muted, { desc: `a notice for @${muter.userName}` });

    // Nothing new for the muter, and the like group is exactly as it was.
    expect(await notificationsOf(muter)).toEqual(before);
    // The writes themselves happened, and the other user was notified as always (the muted user
    // sees nothing different).
    // (three comments on their post: the muter's, and the muted user's reply and mention there)
    expect((await notificationsOf(other)).map((row) => row.kind).sort()).toEqual(['comment', 'comment', 'comment']);
    expect((await followersOf(muter)).followers).toEqual([muted.id]);

    // Unmuted, the same user's next like notifies again.
    await ok(put(muter, '/api/unmute', { userId: muted.id }));
    await ok(put(muted, '/api/unlike', { postId: muterPost._id }));
    await ok(put(muted, '/api/like', { postId: muterPost._id }));
    expect(await notificationsOf(muter)).toEqual([
      expect.objectContaining({ kind: 'like', actors_count: 2, actors: [muted.id, other.id].sort() }),
    ]);
  });
});

describe('a block withdraws the blocked user’s unread notifications to the blocker (decision 048)', () => {
  it('removes their unread likes, comments, replies, follows and mentions, keeps like groups’ counts exact and read ones', async () => {
    const [alice, bob, carol] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const sharedPost = await createPost(t, alice);
    const bobOnlyPost = await createPost(t, alice);
    const readPost = await createPost(t, alice);
    const carolPost = await createPost(t, carol);
    const aliceComment = await comment(alice, carolPost._id, 'alice on carol’s post');

    // Read before the block: stays.
    await ok(put(bob, '/api/like', { postId: readPost._id }));
    await ok(put(alice, '/api/notifications/read', { all: true }));
    const readBefore = await notificationsOf(alice);
    expect(readBefore).toHaveLength(1);

    await ok(put(carol, '/api/like', { postId: sharedPost._id }));
    await ok(put(bob, '/api/like', { postId: sharedPost._id }));
    await ok(put(bob, '/api/like', { postId: bobOnlyPost._id }));
    await comment(bob, sharedPost._id, 'bob comments on alice’s post');
    await comment(bob, carolPost._id, 'bob replies to alice', aliceComment._id);
    await comment(bob, carolPost._id, `bob mentions @${alice.userName} in a comment`);
    await ok(put(bob, '/api/follow', { followId: alice.id }));
    await ok(
      t.http
        .post('/api/createpost')
        .set('Authorization', bob.auth)
        .send({ title: 'a mention', desc: `hello @${alice.userName}` }),
    );
    await createNotice(t, bob, { desc: `a notice for @${alice.userName}` });
    const carolBefore = await notificationsOf(carol);
    expect((await notificationsOf(alice)).map((row) => row.kind).sort()).toEqual(
      ['comment', 'follow', 'like', 'like', 'like', 'mention', 'mention', 'mention', 'reply'].sort(),
    );

    await ok(put(alice, '/api/block', { userId: bob.id }));

    // Left: the read like group (bob still in it), and carol's like group without bob, counted exactly.
    const after = await notificationsOf(alice);
    expect(after).toHaveLength(2);
    expect(after).toEqual(
      expect.arrayContaining([
        ...readBefore,
        expect.objectContaining({
          kind: 'like',
          post_id: sharedPost._id,
          read: 0,
          actors_count: 1,
          actors: [carol.id],
        }),
      ]),
    );
    // Nobody else's notifications change (carol was told of bob's comments on her post).
    expect(await notificationsOf(carol)).toEqual(carolBefore);
    expect((await ok(get(alice, '/api/notifications/unread-count'))).body).toEqual({ unreadCount: 1 });
  });
});
