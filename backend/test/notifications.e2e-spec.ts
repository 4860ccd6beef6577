import type { Notification, NotificationsReply, Post } from '@techit/contract/api-types';
import { NOTIFICATION_KINDS } from '@techit/contract/enums';
import { NOTIFICATIONS } from '@techit/contract/limits';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Notifications (issue 18, docs/decisions/039-notifications.md): every kind, grouped likes, no
 * self-notification, one per event per person, withdrawal, read state, paging, settings and the
 * @-mention suggestions. One app for the file; every test makes users of its own.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t.close();
});

async function list(user: TestUser, query: Record<string, string | number> = {}): Promise<NotificationsReply> {
  const response = await t.http.get('/api/notifications').query(query).set('Authorization', user.auth);
  expect(response.status).toBe(200);
  return response.body as NotificationsReply;
}

async function unread(user: TestUser): Promise<number> {
  const response = await t.http.get('/api/notifications/unread-count').set('Authorization', user.auth).expect(200);
  return response.body.unreadCount as number;
}

const like = (user: TestUser, post: Post) =>
  t.http.put('/api/like').set('Authorization', user.auth).send({ postId: post._id }).expect(200);
const unlike = (user: TestUser, post: Post) =>
  t.http.put('/api/unlike').set('Authorization', user.auth).send({ postId: post._id }).expect(200);
const follow = (user: TestUser, other: TestUser) =>
  t.http.put('/api/follow').set('Authorization', user.auth).send({ followId: other.id }).expect(200);
const unfollow = (user: TestUser, other: TestUser) =>
  t.http.put('/api/unfollow').set('Authorization', user.auth).send({ unfollowId: other.id }).expect(200);
const markRead = (user: TestUser, body: unknown) =>
  t.http
    .put('/api/notifications/read')
    .set('Authorization', user.auth)
    .send(body as object);

/** Comments on the post (or replies to parentId) and answers the new comment's id. */
async function comment(user: TestUser, post: Post, text: string, parentId?: string): Promise<string> {
  const response = await t.http
    .put('/api/comment')
    .set('Authorization', user.auth)
    .send({ postId: post._id, text, ...(parentId ? { parentId } : {}) })
    .expect(200);
  const mine = (response.body as Post).comments.filter((c) => c.postedBy._id === user.id && c.text === text);
  return mine[mine.length - 1]._id;
}

const ids = (users: TestUser[]) => users.map((user) => user.id);
const actorIds = (notification: Notification) => notification.actors.map((actor) => actor._id);

describe('kinds', () => {
  it('like: the author gets one, with the liker, the post and the unread count', async () => {
    const [author, liker] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, author, { title: 'Liked post' });
    await like(liker, post);
    const reply = await list(author);
    expect(reply).toEqual({
      notifications: [
        {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          kind: 'like',
          actors: [{ _id: liker.id, userName: liker.userName, pic: expect.any(String) }],
          actorsCount: 1,
          post: { _id: post._id, title: 'Liked post' },
          read: false,
          createdAt: expect.any(String),
        },
      ],
      nextCursor: null,
      unreadCount: 1,
    });
    expect(await unread(author)).toBe(1);
    // Liking twice is one like, and one notification.
    await like(liker, post);
    expect((await list(author)).notifications).toHaveLength(1);
  });

  it('comment: the post author gets it, with the comment and its excerpt', async () => {
    const [author, commenter] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    const long = `First words ${'x'.repeat(300)}`;
    const commentId = await comment(commenter, post, long);
    const [notification] = (await list(author)).notifications;
    expect(notification).toMatchObject({
      kind: 'comment',
      actorsCount: 1,
      post: { _id: post._id, title: post.title },
      comment: { _id: commentId },
      read: false,
    });
    expect(actorIds(notification)).toEqual([commenter.id]);
    expect([...notification.comment!.excerpt]).toHaveLength(NOTIFICATIONS.excerptMax);
    expect(notification.comment!.excerpt).toMatch(/^First words x+…$/);
  });

  it("reply: the parent comment's author gets a reply, the post's author a comment", async () => {
    const [author, commenter, replier] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    const parent = await comment(commenter, post, 'first');
    const reply = await comment(replier, post, 'an answer', parent);
    expect((await list(commenter)).notifications.map((n) => [n.kind, n.comment?._id, n.comment?.excerpt])).toEqual([
      ['reply', reply, 'an answer'],
    ]);
    expect(actorIds((await list(commenter)).notifications[0])).toEqual([replier.id]);
    expect((await list(author)).notifications.map((n) => [n.kind, n.comment?._id])).toEqual([
      ['comment', reply],
      ['comment', parent],
    ]);
  });

  it('reply to your own comment: no reply for you; the post author still gets the comment', async () => {
    const [author, commenter] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    const parent = await comment(commenter, post, 'first');
    await comment(commenter, post, 'and more', parent);
    expect(await list(commenter)).toMatchObject({ notifications: [], unreadCount: 0 });
    expect((await list(author)).notifications.map((n) => n.kind)).toEqual(['comment', 'comment']);
  });

  it('mention: in a comment, a post (desc and body) and a notice, for existing users only', async () => {
    const [author, commenter, named, other] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    const post = await createPost(t, author, { desc: `Hello @${named.userName}`, body: `Also @${other.userName}` });
    const commentId = await comment(commenter, post, `cc @${named.userName.toUpperCase()} and @nobody_here_at_all`);
    const notice = await createNotice(t, commenter, { desc: `Ping @${other.userName}` });

    const namedList = (await list(named)).notifications;
    expect(namedList.map((n) => [n.kind, n.post?._id, n.comment?._id])).toEqual([
      ['mention', post._id, commentId],
      ['mention', post._id, undefined],
    ]);
    expect(actorIds(namedList[0])).toEqual([commenter.id]);
    expect(actorIds(namedList[1])).toEqual([author.id]);
    const otherList = (await list(other)).notifications;
    expect(otherList.map((n) => [n.kind, n.post?._id, n.notice?._id])).toEqual([
      ['mention', undefined, notice._id],
      ['mention', post._id, undefined],
    ]);
    expect(otherList[0].notice!.excerpt).toBe(`Ping @${other.userName}`);
  });

  it('mention on edit: only whom the edit newly mentions', async () => {
    const [author, first, second] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author, { desc: `Hi @${first.userName}` });
    expect(await unread(first)).toBe(1);
    await t.http
      .put(`/api/editpost/${post._id}`)
      .set('Authorization', author.auth)
      .send({ title: post.title, category: 'Informative', desc: `Hi @${first.userName} and @${second.userName}` })
      .expect(200);
    expect(await unread(first)).toBe(1);
    expect((await list(second)).notifications.map((n) => [n.kind, n.post?._id])).toEqual([['mention', post._id]]);
    // Moving a mention from desc to body mentions nobody new.
    await t.http
      .put(`/api/editpost/${post._id}`)
      .set('Authorization', author.auth)
      .send({
        title: post.title,
        category: 'Informative',
        desc: 'Hi all',
        body: `Thanks @${first.userName} @${second.userName}`,
      })
      .expect(200);
    expect(await unread(first)).toBe(1);
    expect(await unread(second)).toBe(1);
  });

  it('follow: the followed user gets one; following twice notifies once', async () => {
    const [followed, follower] = [await createUser(t), await createUser(t)];
    await follow(follower, followed);
    await follow(follower, followed);
    const reply = await list(followed);
    expect(reply.notifications).toHaveLength(1);
    expect(reply.notifications[0]).toMatchObject({ kind: 'follow', actorsCount: 1, read: false });
    expect(reply.notifications[0].post).toBeUndefined();
    expect(actorIds(reply.notifications[0])).toEqual([follower.id]);
  });
});

describe('grouped likes', () => {
  it('one notification per post: actorsCount counts every liker, actors are the newest three', async () => {
    const author = await createUser(t);
    const likers = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    const other = await createPost(t, author);
    for (const liker of likers) await like(liker, post);
    await like(likers[0], other);
    const reply = await list(author);
    expect(reply.notifications.map((n) => [n.post?._id, n.actorsCount])).toEqual([
      [other._id, 1],
      [post._id, 4],
    ]);
    expect(actorIds(reply.notifications[1])).toEqual(ids([likers[3], likers[2], likers[1]]));
    expect(reply.unreadCount).toBe(2);
  });

  it('a new like moves an unread group up; on a read group it is unread again, the new liker first', async () => {
    const author = await createUser(t);
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    await like(a, post);
    await follow(b, author);
    expect((await list(author)).notifications.map((n) => n.kind)).toEqual(['follow', 'like']);
    await like(b, post);
    const moved = await list(author);
    expect(moved.notifications.map((n) => n.kind)).toEqual(['like', 'follow']);
    expect(moved.unreadCount).toBe(2);

    await markRead(author, { all: true }).expect(200);
    await like(c, post);
    const again = await list(author);
    expect(again.notifications[0]).toMatchObject({ kind: 'like', read: false, actorsCount: 3 });
    expect(actorIds(again.notifications[0])).toEqual(ids([c, b, a]));
    expect(again.unreadCount).toBe(1);
  });

  it('a liker already in the group raises nothing when liking again (no like/unlike spam)', async () => {
    const [author, liker] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    await like(liker, post);
    await markRead(author, { all: true }).expect(200);
    await unlike(liker, post);
    await like(liker, post);
    expect(await unread(author)).toBe(0);
    expect((await list(author)).notifications).toHaveLength(1);
  });
  it('likes racing on one post from different users all join one group: actorsCount is exact', async () => {
    const author = await createUser(t);
    const likers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createUser(t)));
    const post = await createPost(t, author);
    await Promise.all(likers.map((liker) => like(liker, post)));
    const [group, ...others] = (await list(author)).notifications;
    expect(others).toEqual([]);
    expect(group).toMatchObject({ kind: 'like', actorsCount: likers.length, read: false });
    const actors = await t.db
      .selectFrom('notification_actors')
      .select('actor_id')
      .where('notification_id', '=', group._id)
      .execute();
    expect(actors.map((row) => row.actor_id).sort()).toEqual(ids(likers).sort());
  });

  it('like, unlike, like again by one user on a read group: it stays read with the same count', async () => {
    const [author, a, b] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    await like(a, post);
    await like(b, post);
    await markRead(author, { all: true }).expect(200);
    const before = (await list(author)).notifications[0];
    for (let i = 0; i < 2; i++) {
      await unlike(b, post);
      await like(b, post);
    }
    expect(await unread(author)).toBe(0);
    expect((await list(author)).notifications).toEqual([before]);
  });

  it('with likes switched off a new like leaves an existing group alone, and its unlike does too', async () => {
    const [author, a, b] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    await like(a, post);
    const before = (await list(author)).notifications[0];
    const settings = (body: object) =>
      t.http.put('/api/notification-settings').set('Authorization', author.auth).send(body).expect(200);
    await settings({ like: false });
    await like(b, post);
    expect((await list(author)).notifications).toEqual([before]);
    await settings({ like: true });
    await unlike(b, post);
    expect((await list(author)).notifications).toEqual([before]);
    await like(b, post);
    const [group] = (await list(author)).notifications;
    expect(group).toMatchObject({ kind: 'like', actorsCount: 2, read: false });
    expect(actorIds(group)).toEqual(ids([b, a]));
  });
});

describe('rules', () => {
  it('never notifies you of your own actions', async () => {
    const me = await createUser(t);
    const post = await createPost(t, me, { desc: `Note to @${me.userName}` });
    await like(me, post);
    await comment(me, post, `I agree, @${me.userName}`);
    await createNotice(t, me, { desc: `@${me.userName} again` });
    expect(await list(me)).toEqual({ notifications: [], nextCursor: null, unreadCount: 0 });
  });

  it('a reply that mentions you is one reply, also when it is your post', async () => {
    const [author, other, replier] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    const byAuthor = await comment(author, post, 'my own first comment');
    const byOther = await comment(other, post, 'a comment');
    await comment(replier, post, `@${author.userName} yes`, byAuthor);
    await comment(replier, post, `@${other.userName} @${author.userName} no`, byOther);
    // On the author's post, the second reply (mentioning the author) is a comment to them: comment > mention.
    expect((await list(author)).notifications.map((n) => n.kind)).toEqual(['comment', 'reply', 'comment']);
    expect((await list(other)).notifications.map((n) => n.kind)).toEqual(['reply']);
  });

  it('an edited comment notifies only whom it newly mentions, and nobody who has one about it', async () => {
    const [author, commenter, first, second] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    const post = await createPost(t, author);
    const commentId = await comment(commenter, post, 'hello');
    const edit = (text: string) =>
      t.http
        .put(`/api/comment/${post._id}/${commentId}`)
        .set('Authorization', commenter.auth)
        .send({ text })
        .expect(200);
    await edit(`hello @${first.userName} @${author.userName}`);
    expect((await list(first)).notifications.map((n) => [n.kind, n.comment?._id])).toEqual([['mention', commentId]]);
    expect((await list(author)).notifications.map((n) => n.kind)).toEqual(['comment']);
    await edit(`hello @${first.userName} and @${second.userName}`);
    expect(await unread(first)).toBe(1);
    expect((await list(second)).notifications.map((n) => n.kind)).toEqual(['mention']);
    expect((await list(second)).notifications[0].comment!.excerpt).toBe(
      `hello @${first.userName} and @${second.userName}`,
    );
  });

  it('a comment on your post that mentions you is one comment', async () => {
    const [author, commenter] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    await comment(commenter, post, `@${author.userName} look`);
    expect((await list(author)).notifications.map((n) => n.kind)).toEqual(['comment']);
  });

  it('a kind switched off is not written (and no lower kind instead)', async () => {
    const [author, other] = [await createUser(t), await createUser(t)];
    await t.http
      .put('/api/notification-settings')
      .set('Authorization', author.auth)
      .send({ like: false, comment: false })
      .expect(200);
    const post = await createPost(t, author);
    await like(other, post);
    await comment(other, post, `hey @${author.userName}`);
    await follow(other, author);
    expect((await list(author)).notifications.map((n) => n.kind)).toEqual(['follow']);
    const rows = await t.db.selectFrom('notifications').select('kind').where('user_id', '=', author.id).execute();
    expect(rows.map((row) => row.kind)).toEqual(['follow']);
  });
});

describe('withdrawal', () => {
  it('unlike takes the liker out of an unread group, and the group goes with its last liker', async () => {
    const author = await createUser(t);
    const [a, b] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    await like(a, post);
    await like(b, post);
    await unlike(b, post);
    const [group] = (await list(author)).notifications;
    expect(group).toMatchObject({ kind: 'like', actorsCount: 1 });
    expect(actorIds(group)).toEqual([a.id]);
    await unlike(a, post);
    expect(await list(author)).toEqual({ notifications: [], nextCursor: null, unreadCount: 0 });
  });

  it('unlike leaves a read group as it is', async () => {
    const [author, liker] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    await like(liker, post);
    await markRead(author, { all: true }).expect(200);
    await unlike(liker, post);
    const [group] = (await list(author)).notifications;
    expect(group).toMatchObject({ kind: 'like', read: true, actorsCount: 1 });
  });

  it('a deleted comment withdraws its unread notifications (comment and mention), not the read ones', async () => {
    const [author, commenter, named] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    const first = await comment(commenter, post, `one @${named.userName}`);
    await t.http.delete(`/api/comment/${post._id}/${first}`).set('Authorization', commenter.auth).expect(200);
    expect(await list(author)).toMatchObject({ notifications: [], unreadCount: 0 });
    expect(await list(named)).toMatchObject({ notifications: [], unreadCount: 0 });

    const second = await comment(commenter, post, 'two');
    await markRead(author, { all: true }).expect(200);
    await t.http.delete(`/api/comment/${post._id}/${second}`).set('Authorization', author.auth).expect(200);
    const [kept] = (await list(author)).notifications;
    // Read, so it stays, pointing at the post; the comment itself is gone.
    expect(kept).toMatchObject({ kind: 'comment', read: true, post: { _id: post._id } });
    expect(kept.comment).toBeUndefined();
  });

  it('a deleted comment that keeps its place for its replies withdraws its own unread notifications only', async () => {
    const [author, commenter, replier] = [await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, author);
    const parent = await comment(commenter, post, 'first');
    const reply = await comment(replier, post, 'answer', parent);
    await t.http.delete(`/api/comment/${post._id}/${parent}`).set('Authorization', commenter.auth).expect(200);
    // The parent's "comment" is withdrawn; the reply's notifications stay.
    expect((await list(author)).notifications.map((n) => [n.kind, n.comment?._id])).toEqual([['comment', reply]]);
    expect((await list(commenter)).notifications.map((n) => [n.kind, n.comment?._id])).toEqual([['reply', reply]]);
  });

  it('unfollow withdraws an unread follow notification, not a read one', async () => {
    const [followed, follower] = [await createUser(t), await createUser(t)];
    await follow(follower, followed);
    await unfollow(follower, followed);
    expect(await list(followed)).toMatchObject({ notifications: [], unreadCount: 0 });
    await follow(follower, followed);
    await markRead(followed, { all: true }).expect(200);
    await unfollow(follower, followed);
    expect((await list(followed)).notifications.map((n) => [n.kind, n.read])).toEqual([['follow', true]]);
  });
});

describe('read state', () => {
  it('marks by ids (only your own) and all; answers the unread count', async () => {
    const [me, other] = [await createUser(t), await createUser(t)];
    const followers = [await createUser(t), await createUser(t), await createUser(t)];
    for (const follower of followers) await follow(follower, me);
    await follow(me, other);
    const mine = (await list(me)).notifications;
    const theirs = (await list(other)).notifications;
    const response = await markRead(me, { ids: [mine[0]._id, theirs[0]._id] }).expect(200);
    expect(response.body).toEqual({ unreadCount: 2 });
    expect((await list(me)).notifications.map((n) => n.read)).toEqual([true, false, false]);
    expect(await unread(other)).toBe(1);
    expect((await markRead(me, { all: true }).expect(200)).body).toEqual({ unreadCount: 0 });
    expect(await unread(other)).toBe(1);
  });

  it.each([
    ['no field', {}, /ids .* or all/],
    ['all: false', { all: false }, /ids .* or all/],
    ['no ids', { ids: [] }, /at least one/],
    ['ids not a list', { ids: 'abc' }, /at least one/],
    ['a malformed id', { ids: ['nope'] }, /notification id/],
    [
      'too many ids',
      { ids: Array.from({ length: NOTIFICATIONS.markReadMaxIds + 1 }, () => 'a'.repeat(24)) },
      /at most/,
    ],
    ['both ids and all', { ids: ['a'.repeat(24)], all: true }, /ids .* or all/],
    ['a list body', [1, 2], /JSON object/],
  ])('refuses %s with 400', async (_name, body, error) => {
    const me = await createUser(t);
    const response = await markRead(me, body);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { error: expect.stringMatching(error) },
    });
  });
});

describe('paging', () => {
  it('walks every notification once by cursor, newest first', async () => {
    const me = await createUser(t);
    const followers: TestUser[] = [];
    for (let i = 0; i < 7; i++) followers.push(await createUser(t));
    for (const follower of followers) await follow(follower, me);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: NotificationsReply = await list(me, cursor ? { limit: 3, cursor } : { limit: 3 });
      seen.push(...page.notifications.map((n) => n.actors[0]._id));
      // A notification arriving meanwhile goes to the top, never into the pages still to come.
      if (pages === 0) await follow(await createUser(t), me);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids([...followers].reverse()));
    expect((await list(me)).notifications).toHaveLength(8);
  });

  it('defaults to 20 a page; refuses a bad cursor and a bad limit with 400', async () => {
    const me = await createUser(t);
    for (let i = 0; i < 21; i++) await follow(await createUser(t), me);
    const first = await list(me);
    expect(first.notifications).toHaveLength(NOTIFICATIONS.defaultLimit);
    expect(first.nextCursor).toEqual(expect.any(String));
    for (const query of [{ cursor: 'garbage' }, { limit: 0 }, { limit: NOTIFICATIONS.maxLimit + 1 }, { limit: 'x' }]) {
      const response = await t.http.get('/api/notifications').query(query).set('Authorization', me.auth);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: { error: expect.any(String) },
      });
    }
  });
});

describe('settings', () => {
  it('all on by default; a PUT changes only what it names and answers them all', async () => {
    const me = await createUser(t);
    const allOn = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true]));
    expect((await t.http.get('/api/notification-settings').set('Authorization', me.auth).expect(200)).body).toEqual(
      allOn,
    );
    const off = await t.http
      .put('/api/notification-settings')
      .set('Authorization', me.auth)
      .send({ follow: false, mention: false })
      .expect(200);
    expect(off.body).toEqual({ ...allOn, follow: false, mention: false });
    const on = await t.http.put('/api/notification-settings').set('Authorization', me.auth).send({ follow: true });
    expect(on.body).toEqual({ ...allOn, mention: false });
    expect((await t.http.get('/api/notification-settings').set('Authorization', me.auth)).body).toEqual(on.body);
  });

  it.each([
    [{ likes: false }, /not a kind/],
    [{ like: 'no' }, /true or false/],
    [{ like: 0 }, /true or false/],
    [{}, /at least one/],
    [['like'], /JSON object/],
  ])('refuses %j with 400 and changes nothing', async (body, error) => {
    const me = await createUser(t);
    await t.http.put('/api/notification-settings').set('Authorization', me.auth).send({ reply: false }).expect(200);
    const response = await t.http.put('/api/notification-settings').set('Authorization', me.auth).send(body);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { error: expect.stringMatching(error) },
    });
    const settings = await t.http.get('/api/notification-settings').set('Authorization', me.auth);
    expect(settings.body).toEqual({ like: true, comment: true, reply: false, mention: true, follow: true });
  });
});

describe('login', () => {
  it.each([
    ['get', '/api/notifications'],
    ['get', '/api/notifications/unread-count'],
    ['put', '/api/notifications/read'],
    ['get', '/api/notification-settings'],
    ['put', '/api/notification-settings'],
    ['post', '/api/notifications/stream-ticket'],
  ] as const)('%s %s needs a login (401)', async (method, path) => {
    const response = await t.http[method](path).send({ all: true });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 401,
      body: { error: expect.any(String) },
    });
    const stale = await t.http[method](path).set('Authorization', 'Bearer not.a.token').send({ all: true });
    expect(stale.status).toBe(401);
  });
});

describe('user suggestions', () => {
  it('answers users whose userName starts with the prefix, any case, in name order, up to the limit', async () => {
    const tag = `q${process.pid}`;
    const names = [`${tag}Zeta`, `${tag}alpha`, `${tag}Alpine`, `${tag}beta`];
    for (const userName of names) await createUser(t, { userName });
    const suggest = async (query: Record<string, string | number>) => {
      const response = await t.http.get('/api/users/suggest').query(query).expect(200);
      return (response.body.users as { userName: string }[]).map((user) => user.userName);
    };
    expect(await suggest({ prefix: `${tag}AL` })).toEqual([`${tag}alpha`, `${tag}Alpine`]);
    expect(await suggest({ prefix: `@${tag}al` })).toEqual([`${tag}alpha`, `${tag}Alpine`]);
    expect(await suggest({ prefix: tag, limit: 3 })).toEqual([`${tag}alpha`, `${tag}Alpine`, `${tag}beta`]);
    expect(await suggest({ prefix: `${tag}zz` })).toEqual([]);
    const [first] = (await t.http.get('/api/users/suggest').query({ prefix: `${tag}ze` })).body.users;
    expect(first).toEqual({ _id: expect.any(String), userName: `${tag}Zeta`, pic: expect.any(String) });
  });

  it('answers an empty list under 2 characters (an editor asks as the user types); 400 for a bad limit', async () => {
    for (const prefix of ['', 'q', '@q', '@']) {
      const response = await t.http.get('/api/users/suggest').query({ prefix }).expect(200);
      expect(response.body).toEqual({ users: [] });
    }
    for (const limit of [0, 21, 'x']) {
      const response = await t.http.get('/api/users/suggest').query({ prefix: 'qq', limit });
      expect(response.status).toBe(400);
    }
  });
});
