import { randomUUID } from 'node:crypto';
import { type Comment, DELETED_AUTHOR, type Post } from '@techit/contract/api-types';
import { DEFAULT_PROFILE_PIC, LIMITS } from '@techit/contract/limits';
import { sql } from 'kysely';
import type { Response } from 'supertest';
import { THREAD_READ } from '../src/posts/thread-read';
import { createPost, createUser, makeAdmin, text, type TestUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

/**
 * Threaded comments (issue 18, docs/decisions/038-comment-threads.md): replies (parentId), the
 * author's edit, delete keeping a "[deleted]" placeholder while replies hang under it, counters of
 * live comments only, and GET /api/posts/:id/comments?thread= (ancestors, the comment, its subtree).
 */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Well-formed, but no row has it. */
const MISSING_ID = '0123456789abcdef01234567';
const NO_COMMENT = "This comment doesn't exist";

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob, carol, admin] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t)]);
  await makeAdmin(t, admin);
});
afterAll(() => t.close());

function authorOf(user: TestUser) {
  return { _id: user.id, userName: user.userName, pic: DEFAULT_PROFILE_PIC };
}

function reply(user: TestUser, postId: string, body: Record<string, unknown>, query = '') {
  return t.http
    .put(`/api/comment${query}`)
    .set('Authorization', user.auth)
    .send({ postId, ...body });
}

function edit(user: TestUser, postId: string, commentId: string, body: unknown, query = '') {
  return t.http
    .put(`/api/comment/${postId}/${commentId}${query}`)
    .set('Authorization', user.auth)
    .send(body as object);
}

function remove(user: TestUser, postId: string, commentId: string) {
  return t.http.delete(`/api/comment/${postId}/${commentId}`).set('Authorization', user.auth);
}

function thread(postId: string, commentId: string, extra = '') {
  return t.http.get(`/api/posts/${postId}/comments?thread=${commentId}${extra}`);
}

/** Comments `user` and answers the new comment (the newest one of the post's reply). */
async function say(user: TestUser, postId: string, words: string, parentId?: string | null): Promise<Comment> {
  const response = await reply(user, postId, { text: words, ...(parentId === undefined ? {} : { parentId }) });
  expect({ status: response.status, body: response.body as unknown }).toEqual({
    status: 200,
    body: expect.objectContaining({ _id: postId }),
  });
  const comments = (response.body as Post).comments;
  const mine = comments.filter((comment) => comment.text === words);
  expect(mine).toHaveLength(1);
  return mine[0];
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

/** The post's stored counters, and the same counted from its rows the way decision 038 defines them. */
async function counters(postId: string) {
  const post = await t.db
    .selectFrom('posts')
    .select(['comments_count', 'commenters_count'])
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  const live = await t.db
    .selectFrom('comments')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('author_id').distinct().as('authors')])
    .where('post_id', '=', postId)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return {
    stored: { comments: Number(post.comments_count), commenters: Number(post.commenters_count) },
    counted: { comments: Number(live.n), commenters: Number(live.authors) },
  };
}

async function expectCounters(postId: string, comments: number, commenters: number): Promise<void> {
  expect(await counters(postId)).toEqual({
    stored: { comments, commenters },
    counted: { comments, commenters },
  });
  const shown = (await t.http.get(`/api/posts/${postId}`).expect(200)).body.post as Post;
  expect(shown.commentsCount).toBe(comments);
}

/** The post's comments as the spec's flat list carries them: [id, parentId, deleted, text]. */
async function flat(postId: string): Promise<[string, string | null, boolean, string][]> {
  const post = (await t.http.get(`/api/posts/${postId}`).expect(200)).body.post as Post;
  return post.comments.map((c) => [c._id, c.parentId, c.deleted, c.text]);
}

describe('PUT /api/comment with parentId', () => {
  it('replies to a comment of the same post; every comment carries parentId, editedAt and deleted', async () => {
    const post = await createPost(t, alice);
    const top = await say(bob, post._id, 'top');
    const response = await reply(carol, post._id, { text: 'an answer', parentId: top._id }).expect(200);
    const comments = (response.body as Post).comments;
    expect(comments).toEqual([
      {
        _id: top._id,
        text: 'top',
        textHtml: '<p>top</p>\n',
        postedBy: authorOf(bob),
        createdAt: expect.stringMatching(ISO),
        parentId: null,
        editedAt: null,
        deleted: false,
      },
      {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        text: 'an answer',
        textHtml: '<p>an answer</p>\n',
        postedBy: authorOf(carol),
        createdAt: expect.stringMatching(ISO),
        parentId: top._id,
        editedAt: null,
        deleted: false,
      },
    ]);
    // An explicit null is a comment at the top, like no parentId at all; an upper-case id is the same id.
    expect((await say(alice, post._id, 'another top', null)).parentId).toBeNull();
    expect((await say(alice, post._id, 'shouted id', top._id.toUpperCase())).parentId).toBe(top._id);
    // The compact single post and the lists carry the same fields.
    const compact = (await t.http.get(`/api/posts/${post._id}?view=compact`).expect(200)).body.post as Post;
    expect(compact.comments.map((c) => [c.parentId, c.editedAt, c.deleted])).toEqual([
      [null, null, false],
      [top._id, null, false],
      [null, null, false],
      [top._id, null, false],
    ]);
    const listed = (await t.http.get(`/api/userposts/${alice.id}?view=compact`).expect(200)).body.userPosts as Post[];
    const inList = listed.find((p) => p._id === post._id);
    expect(inList?.comments.every((c) => 'parentId' in c && 'editedAt' in c && c.deleted === false)).toBe(true);
    await expectCounters(post._id, 4, 3);
  });

  it('refuses a parent on another post (404), a malformed one (400), a missing one (404) and a placeholder (409)', async () => {
    const post = await createPost(t, alice);
    const other = await createPost(t, bob);
    const elsewhere = await say(bob, other._id, 'on the other post');
    const parent = await say(bob, post._id, 'parent');
    await say(carol, post._id, 'child', parent._id);

    await expectRejected(() => reply(carol, post._id, { text: 'x', parentId: elsewhere._id }), 404, NO_COMMENT);
    await expectRejected(() => reply(carol, post._id, { text: 'x', parentId: MISSING_ID }), 404, NO_COMMENT);
    for (const bad of ['nope', 42, '0123456789abcdef0123456', { $gt: '' }, ['a'], '']) {
      await expectRejected(
        () => reply(carol, post._id, { text: 'x', parentId: bad }),
        400,
        'parentId must be a comment id',
      );
    }
    // The parent is deleted while it has a reply: it stays as a placeholder nobody can answer.
    await remove(bob, post._id, parent._id).expect(200);
    await expectRejected(() => reply(carol, post._id, { text: 'x', parentId: parent._id }), 409);
    // A text problem still reads as the text's.
    await expectRejected(() => reply(carol, post._id, { text: ' ', parentId: elsewhere._id }), 400);
    await expectCounters(post._id, 1, 1);
  });

  it('replays an idempotent reply: one row, the same answer', async () => {
    const post = await createPost(t, alice);
    const parent = await say(bob, post._id, 'parent');
    const key = randomUUID();
    const send = () => reply(carol, post._id, { text: 'only once', parentId: parent._id }).set('Idempotency-Key', key);
    const first = await send().expect(200);
    const again = await send().expect(200);
    expect(again.body).toEqual(first.body);
    const rows = await t.db.selectFrom('comments').select('parent_id').where('post_id', '=', post._id).execute();
    expect(rows.map((row) => row.parent_id).sort()).toEqual([parent._id, null].sort());
    // The same key for another parent is another request.
    await reply(carol, post._id, { text: 'only once', parentId: null }).set('Idempotency-Key', key).expect(422);
    await expectCounters(post._id, 2, 2);
  });
});

describe('PUT /api/comment/:postId/:commentId', () => {
  it('lets the author edit: new text and HTML, editedAt set, mentions resolved again; the same text writes nothing', async () => {
    const post = await createPost(t, alice);
    const comment = await say(bob, post._id, 'first words');
    const response = await edit(bob, post._id, comment._id, {
      text: `  **better** words, @${carol.userName}  `,
    }).expect(200);
    const edited = (response.body as Post).comments.find((c) => c._id === comment._id);
    expect(edited).toEqual({
      ...comment,
      text: `**better** words, @${carol.userName}`,
      textHtml: expect.stringContaining('<strong>better</strong>'),
      editedAt: expect.stringMatching(ISO),
    });
    expect(edited?.textHtml).toContain(`/profile/${carol.id}`);
    expect(edited && edited.editedAt && edited.editedAt >= comment.createdAt).toBe(true);

    // The same text again (after trimming) changes nothing, not even editedAt.
    const before = await snapshot(t.db);
    const same = await edit(bob, post._id, comment._id, { text: ` **better** words, @${carol.userName}` }).expect(200);
    expect((same.body as Post).comments.find((c) => c._id === comment._id)).toEqual(edited);
    expect(await snapshot(t.db)).toEqual(before);

    // view=compact answers like PUT /api/comment does.
    const compact = await edit(bob, post._id, comment._id, { text: 'third' }, '?view=compact').expect(200);
    expect((compact.body as Post).likes).toEqual([]);
    expect((compact.body as Post).commentsNextCursor).toBeNull();
    await expectCounters(post._id, 1, 1);
  });

  it('refuses empty and over-long text (400), someone else (403, even an admin), an unknown comment (404), changing nothing', async () => {
    const post = await createPost(t, alice);
    const comment = await say(bob, post._id, 'mine');
    await expectRejected(() => edit(bob, post._id, comment._id, { text: '' }), 400, 'Comment is required');
    await expectRejected(() => edit(bob, post._id, comment._id, { text: '   ' }), 400, 'Comment is required');
    await expectRejected(() => edit(bob, post._id, comment._id, {}), 400);
    await expectRejected(() => edit(bob, post._id, comment._id, { text: 7 }), 400);
    await expectRejected(
      () => edit(bob, post._id, comment._id, { text: text(LIMITS.commentMax + 1) }),
      400,
      `Comment must be at most ${LIMITS.commentMax} characters`,
    );
    await edit(bob, post._id, comment._id, { text: text(LIMITS.commentMax) }).expect(200);

    for (const stranger of [carol, alice, admin]) {
      await expectRejected(
        () => edit(stranger, post._id, comment._id, { text: 'not yours' }),
        403,
        "Only the comment's author can edit it",
      );
    }
    await expectRejected(() => edit(bob, post._id, MISSING_ID, { text: 'x' }), 404, NO_COMMENT);
    await expectRejected(() => edit(bob, post._id, 'not-an-id', { text: 'x' }), 404, NO_COMMENT);
    const other = await createPost(t, carol);
    await expectRejected(() => edit(bob, other._id, comment._id, { text: 'x' }), 404, NO_COMMENT);
    await expectRejected(() => edit(bob, MISSING_ID, comment._id, { text: 'x' }), 404, "This post doesn't exist");
    await t.http.put(`/api/comment/${post._id}/${comment._id}`).send({ text: 'x' }).expect(401);

    // A placeholder cannot be edited back to life.
    await say(carol, post._id, 'answer', comment._id);
    await remove(bob, post._id, comment._id).expect(200);
    await expectRejected(() => edit(bob, post._id, comment._id, { text: 'back' }), 404, NO_COMMENT);
    await expectCounters(post._id, 1, 1);
  });
});

describe('DELETE /api/comment/:postId/:commentId in a thread', () => {
  it('keeps a placeholder for a comment with replies, removes childless placeholders above a deleted leaf, counters exact throughout', async () => {
    const post = await createPost(t, alice);
    const root = await say(bob, post._id, 'root');
    const middle = await say(carol, post._id, 'middle', root._id);
    const leaf = await say(alice, post._id, 'leaf', middle._id);
    const sibling = await say(bob, post._id, 'sibling', root._id);
    await expectCounters(post._id, 4, 3);

    // The middle comment has a reply: it stays as "[deleted]" and its reply stays under it.
    const placeholder = await remove(carol, post._id, middle._id).expect(200);
    expect((placeholder.body as Post).comments.find((c) => c._id === middle._id)).toEqual({
      _id: middle._id,
      text: '',
      textHtml: '',
      postedBy: DELETED_AUTHOR,
      createdAt: middle.createdAt,
      parentId: root._id,
      editedAt: null,
      deleted: true,
    });
    expect(await flat(post._id)).toEqual([
      [root._id, null, false, 'root'],
      [middle._id, root._id, true, ''],
      [leaf._id, middle._id, false, 'leaf'],
      [sibling._id, root._id, false, 'sibling'],
    ]);
    // carol's only comment is gone: she no longer counts as a commenter.
    await expectCounters(post._id, 3, 2);
    // Nothing of the text is kept.
    const row = await t.db.selectFrom('comments').selectAll().where('id', '=', middle._id).executeTakeFirstOrThrow();
    expect([row.text, row.text_html, Number(row.deleted)]).toEqual(['', '', 1]);
    // Deleting the placeholder again: it is not a comment any more.
    await expectRejected(() => remove(carol, post._id, middle._id), 404, NO_COMMENT);
    await expectRejected(() => remove(admin, post._id, middle._id), 404, NO_COMMENT);

    // The root has replies too: a placeholder as well.
    await remove(bob, post._id, root._id).expect(200);
    await expectCounters(post._id, 2, 2);

    // The leaf goes, and the placeholder above it, left without replies, goes with it; the root
    // placeholder still has the sibling under it and stays.
    await remove(alice, post._id, leaf._id).expect(200);
    expect(await flat(post._id)).toEqual([
      [root._id, null, true, ''],
      [sibling._id, root._id, false, 'sibling'],
    ]);
    await expectCounters(post._id, 1, 1);

    // The last live comment goes (by the post's author), and with it the last placeholder.
    await remove(alice, post._id, sibling._id).expect(200);
    expect(await flat(post._id)).toEqual([]);
    await expectCounters(post._id, 0, 0);
    const hot = await t.db.selectFrom('posts').select('hot_score').where('id', '=', post._id).executeTakeFirstOrThrow();
    const fresh = await createPost(t, alice);
    const freshHot = await t.db
      .selectFrom('posts')
      .select('hot_score')
      .where('id', '=', fresh._id)
      .executeTakeFirstOrThrow();
    // With no likes and no commenters, the score is the time term alone (both were made this second).
    expect(Math.abs(Number(hot.hot_score) - Number(freshHot.hot_score))).toBeLessThan(1);
  });

  it('removes a whole chain of placeholders when its last leaf goes, and a refused delete changes nothing', async () => {
    const post = await createPost(t, alice);
    const a = await say(bob, post._id, 'a');
    const b = await say(bob, post._id, 'b', a._id);
    const c = await say(bob, post._id, 'c', b._id);
    const d = await say(carol, post._id, 'd', c._id);
    await expectRejected(() => remove(carol, post._id, a._id), 403);
    for (const comment of [a, b, c]) await remove(bob, post._id, comment._id).expect(200);
    expect((await flat(post._id)).map(([, , deleted]) => deleted)).toEqual([true, true, true, false]);
    await expectCounters(post._id, 1, 1);
    // An admin removes the leaf: the three placeholders above it go too.
    await remove(admin, post._id, d._id).expect(200);
    expect(await flat(post._id)).toEqual([]);
    await expectCounters(post._id, 0, 0);
  });

  it('stays exact when replies and deletes of their parent race', async () => {
    const post = await createPost(t, alice);
    const parents = await Promise.all([0, 1, 2, 3].map((n) => say(bob, post._id, `parent ${n}`)));
    const responses = await Promise.all(
      parents.flatMap((parent) => [
        remove(bob, post._id, parent._id),
        reply(carol, post._id, { text: `reply to ${parent.text}`, parentId: parent._id }),
      ]),
    );
    // A reply lands before the delete (then the parent becomes a placeholder) or after it (404 or 409).
    expect(responses.map((r) => r.status).every((status) => [200, 404, 409].includes(status))).toBe(true);
    const rows = await t.db.selectFrom('comments').selectAll().where('post_id', '=', post._id).execute();
    for (const row of rows.filter((r) => r.parent_id !== null)) {
      expect(rows.find((r) => r.id === row.parent_id)?.deleted).toBe(1);
    }
    // No placeholder without a reply.
    for (const row of rows.filter((r) => r.deleted === 1)) {
      expect(rows.some((r) => r.parent_id === row.id)).toBe(true);
    }
    const live = rows.filter((r) => r.deleted === 0).length;
    await expectCounters(post._id, live, live === 0 ? 0 : 1);
  });
});

describe('GET /api/posts/:id/comments?thread=', () => {
  it('answers the ancestors (root first), the comment and its subtree (oldest first)', async () => {
    const post = await createPost(t, alice);
    const root = await say(bob, post._id, 'root');
    const unrelated = await say(carol, post._id, 'unrelated top');
    const a = await say(carol, post._id, 'a', root._id);
    const b = await say(alice, post._id, 'b', a._id);
    const cousin = await say(bob, post._id, 'cousin', root._id);
    const c = await say(bob, post._id, 'c', b._id);
    const d = await say(carol, post._id, 'd', a._id);
    const e = await say(alice, post._id, 'e', c._id);
    await say(alice, post._id, 'under cousin', cousin._id);

    const ids = (response: Response) => (response.body as { comments: Comment[] }).comments.map((x) => x.text);
    const ofA = await thread(post._id, a._id).expect(200);
    expect(ids(ofA)).toEqual(['root', 'a', 'b', 'c', 'd', 'e']);
    expect(ofA.body.nextCursor).toBeNull();
    // Whole comments, as everywhere.
    expect((ofA.body as { comments: Comment[] }).comments[1]).toEqual(a);
    expect(ids(await thread(post._id, e._id).expect(200))).toEqual(['root', 'a', 'b', 'c', 'e']);
    expect(ids(await thread(post._id, root._id).expect(200))).toEqual([
      'root',
      'a',
      'b',
      'cousin',
      'c',
      'd',
      'e',
      'under cousin',
    ]);
    expect(ids(await thread(post._id, unrelated._id).expect(200))).toEqual(['unrelated top']);
    expect(ids(await thread(post._id, d._id.toUpperCase()).expect(200))).toEqual(['root', 'a', 'd']);

    // Placeholders keep their place in the chain.
    await remove(carol, post._id, a._id).expect(200);
    const withPlaceholder = (await thread(post._id, c._id).expect(200)).body as { comments: Comment[] };
    expect(withPlaceholder.comments.map((x) => [x.text, x.deleted, x.postedBy.userName])).toEqual([
      ['root', false, bob.userName],
      ['', true, DELETED_AUTHOR.userName],
      ['b', false, alice.userName],
      ['c', false, bob.userName],
      ['e', false, alice.userName],
    ]);
    // A placeholder's own thread still answers (a permalink to it keeps working).
    expect(ids(await thread(post._id, a._id).expect(200))).toEqual(['root', '', 'b', 'c', 'd', 'e']);
  });

  it('refuses a malformed thread or a limit beside it (400) and a comment the post does not have (404)', async () => {
    const post = await createPost(t, alice);
    const other = await createPost(t, bob);
    const comment = await say(bob, post._id, 'here');
    const elsewhere = await say(bob, other._id, 'there');
    for (const bad of ['nope', '0123456789abcdef0123456', '0123456789abcdef012345678']) {
      await thread(post._id, bad).expect(400, { error: 'thread must be a comment id' });
    }
    await t.http.get(`/api/posts/${post._id}/comments?thread=`).expect(400, { error: 'thread must be a comment id' });
    await t.http
      .get(`/api/posts/${post._id}/comments?thread=${comment._id}&thread=${comment._id}`)
      .expect(400, { error: 'thread must be a comment id' });
    await thread(post._id, comment._id, '&limit=5').expect(400, { error: 'limit cannot be combined with thread' });
    await thread(post._id, comment._id, '&cursor=garbage').expect(400);
    await thread(post._id, MISSING_ID).expect(404, { error: NO_COMMENT });
    await thread(post._id, elsewhere._id).expect(404, { error: NO_COMMENT });
    await thread(MISSING_ID, comment._id).expect(404, { error: "This post doesn't exist" });
  });

  it(`pages a subtree larger than ${THREAD_READ.pageSize} by cursor and stops ${THREAD_READ.depth} levels down`, async () => {
    const post = await createPost(t, alice);
    const root = await say(bob, post._id, 'root');
    // Written straight to the table: hundreds of replies through the API would only be slower.
    const base = Date.parse(root.createdAt);
    const at = (n: number) => new Date(base + 1000 + n).toISOString();
    const id = (n: number) => `aaaaaaaa${n.toString(16).padStart(16, '0')}`;
    const wide = THREAD_READ.pageSize + 20;
    const rows = Array.from({ length: wide }, (_, n) => ({
      id: id(n),
      post_id: post._id,
      author_id: carol.id,
      text: `reply ${n}`,
      text_html: `<p>reply ${n}</p>\n`,
      render_version: 0,
      created_at: at(n),
      parent_id: root._id,
    }));
    // A chain hanging off the first reply, deeper than one answer goes.
    const deep = THREAD_READ.depth + 5;
    for (let level = 0; level < deep; level += 1) {
      rows.push({
        id: id(10_000 + level),
        post_id: post._id,
        author_id: carol.id,
        text: `level ${level + 2}`,
        text_html: '',
        render_version: 0,
        created_at: at(wide + level),
        parent_id: level === 0 ? id(0) : id(10_000 + level - 1),
      });
    }
    for (let i = 0; i < rows.length; i += 100)
      await t.db
        .insertInto('comments')
        .values(rows.slice(i, i + 100))
        .execute();

    const first = (await thread(post._id, root._id).expect(200)).body as { comments: Comment[]; nextCursor: string };
    expect(first.comments).toHaveLength(1 + THREAD_READ.pageSize);
    expect(first.comments[0]._id).toBe(root._id);
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = (await thread(post._id, root._id, `&cursor=${first.nextCursor}`).expect(200)).body as {
      comments: Comment[];
      nextCursor: string | null;
    };
    expect(rest.nextCursor).toBeNull();
    const all = [...first.comments, ...rest.comments].map((c) => c.text);
    // Every reply once, in order, and the chain down to THREAD_READ.depth levels below the root.
    expect(all).toEqual([
      'root',
      ...Array.from({ length: wide }, (_, n) => `reply ${n}`),
      ...Array.from({ length: THREAD_READ.depth - 1 }, (_, level) => `level ${level + 2}`),
    ]);
    // A deeper comment's own thread reaches further: its ancestors all the way to the root.
    const deepest = (await thread(post._id, id(10_000 + deep - 1)).expect(200)).body as { comments: Comment[] };
    expect(deepest.comments.map((c) => c.text)).toEqual([
      'root',
      'reply 0',
      ...Array.from({ length: deep }, (_, level) => `level ${level + 2}`),
    ]);
    // The stored counters do not matter to this read; bring them in line for the other suites' checks.
    await sql`update posts set comments_count = (select count(*) from comments where post_id = ${post._id}) where id = ${post._id}`.execute(
      t.db,
    );
  });
});
