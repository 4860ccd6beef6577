import type { Notice, Post } from '@techit/contract/api-types';
import type { Response } from 'supertest';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, snapshot, startTestApp, type TestApp } from './support/test-app';

/**
 * Mallory acting on Alice's things. The plain cases (another user's edit, post delete, notice
 * delete, comment delete → 403) are proven in posts.e2e-spec.ts and notices.e2e-spec.ts; this file
 * tries the ways around those checks: ownership claimed in the body or the query, ids spelled
 * differently, and ids smuggled into calls that act on the caller's own account.
 */

let t: TestApp;
let alice: TestUser;
let mallory: TestUser;
let carol: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [alice, mallory, carol] = [await createUser(t), await createUser(t), await createUser(t)];
});
afterAll(() => t.close());

/** Everything a request could claim to make Mallory the owner, or to act as Alice. */
function ownershipClaims(): Record<string, unknown> {
  return {
    _id: alice.id,
    id: alice.id,
    userId: alice.id,
    user_id: alice.id,
    author_id: mallory.id,
    authorId: mallory.id,
    postedBy: { _id: mallory.id, userName: mallory.userName },
    user: { _id: alice.id },
    role: 'admin',
  };
}
const CLAIMS_QUERY = () => ({ userId: alice.id, author_id: mallory.id, as: alice.id, role: 'admin' });

/** A 403 with `{ error }`, and no row of any table changed. */
async function expectForbidden(send: () => PromiseLike<Response>): Promise<void> {
  await expectDatabaseUnchanged(t.db, async () => {
    const response = await send();
    expect({ status: response.status, body: response.body }).toEqual({
      status: 403,
      body: { error: expect.any(String) },
    });
  });
}

/** Every row of every table except `userId`'s own user row: what a change of one's own profile may not touch. */
async function everythingBut(userId: string): Promise<string> {
  const tables = JSON.parse(await snapshot(t.db)) as Record<string, string[]>;
  tables.users = tables.users.filter((row) => (JSON.parse(row) as { id: string }).id !== userId);
  return JSON.stringify(tables);
}

function editBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Rewritten',
    category: 'Informative',
    desc: 'Rewritten by someone',
    link1: '',
    link2: '',
    ...overrides,
  };
}

describe("another user's post", () => {
  let post: Post;
  beforeAll(async () => {
    post = await createPost(t, alice, { title: 'Alice writes' });
  });

  it('cannot be edited by claiming ownership in the body and the query', async () => {
    await expectForbidden(() =>
      t.http
        .put(`/api/editpost/${post._id}`)
        .query(CLAIMS_QUERY())
        .set('Authorization', mallory.auth)
        .send(editBody(ownershipClaims())),
    );
  });

  it('cannot be edited or deleted through its id in capitals (the same post once read)', async () => {
    const shouting = post._id.toUpperCase();
    await expectForbidden(() =>
      t.http.put(`/api/editpost/${shouting}`).set('Authorization', mallory.auth).send(editBody()),
    );
    await expectForbidden(() => t.http.delete(`/api/deletepost/${shouting}`).set('Authorization', mallory.auth));
  });

  it('cannot be deleted by claiming ownership in the body and the query', async () => {
    await expectForbidden(() =>
      t.http
        .delete(`/api/deletepost/${post._id}`)
        .query(CLAIMS_QUERY())
        .set('Authorization', mallory.auth)
        .send(ownershipClaims()),
    );
  });

  it("is not reached by an edit of one's own post that names it in the body", async () => {
    const own = await createPost(t, mallory, { title: 'Mallory writes' });
    const before = await t.db.selectFrom('posts').selectAll().where('id', '=', post._id).executeTakeFirstOrThrow();
    const response = await t.http
      .put(`/api/editpost/${own._id}`)
      .set('Authorization', mallory.auth)
      .send(editBody({ _id: post._id, id: post._id, postId: post._id }));
    expect(response.status).toBe(200);
    expect(response.body._id).toBe(own._id);
    const after = await t.db.selectFrom('posts').selectAll().where('id', '=', post._id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});

describe("another user's comment", () => {
  let post: Post;
  let alicesComment: string;
  beforeAll(async () => {
    post = await createPost(t, carol);
    const commented = await t.http
      .put('/api/comment')
      .set('Authorization', alice.auth)
      .send({ postId: post._id, text: 'Alice says' })
      .expect(200);
    alicesComment = (commented.body as Post).comments[0]._id;
  });

  it('cannot be deleted by claiming ownership in the body and the query', async () => {
    await expectForbidden(() =>
      t.http
        .delete(`/api/comment/${post._id}/${alicesComment}`)
        .query(CLAIMS_QUERY())
        .set('Authorization', mallory.auth)
        .send(ownershipClaims()),
    );
  });

  it('cannot be deleted through ids in capitals', async () => {
    await expectForbidden(() =>
      t.http
        .delete(`/api/comment/${post._id.toUpperCase()}/${alicesComment.toUpperCase()}`)
        .set('Authorization', mallory.auth),
    );
  });

  it('is not written in her name: a comment is always the caller’s', async () => {
    const response = await t.http
      .put('/api/comment')
      .set('Authorization', mallory.auth)
      .send({ postId: post._id, text: 'Signed: Alice', ...ownershipClaims(), author_id: alice.id });
    expect(response.status).toBe(200);
    const rows = await t.db.selectFrom('comments').select('author_id').where('text', '=', 'Signed: Alice').execute();
    expect(rows).toEqual([{ author_id: mallory.id }]);
  });
});

describe("another user's notice", () => {
  let notice: Notice;
  beforeAll(async () => {
    notice = await createNotice(t, alice, { desc: 'Alice announces' });
  });

  it('cannot be deleted by claiming ownership in the body and the query', async () => {
    await expectForbidden(() =>
      t.http
        .delete(`/api/deletenotice/${notice._id}`)
        .query(CLAIMS_QUERY())
        .set('Authorization', mallory.auth)
        .send(ownershipClaims()),
    );
  });

  it('cannot be deleted through its id in capitals', async () => {
    await expectForbidden(() =>
      t.http.delete(`/api/deletenotice/${notice._id.toUpperCase()}`).set('Authorization', mallory.auth),
    );
  });
});

describe("another user's profile", () => {
  // The API only ever changes the caller ("me"): no route takes the id of the user to change.
  it.each([
    ['PUT', '/api/bio/:id'],
    ['PUT', '/api/position/:id'],
    ['PUT', '/api/updatepic/:id'],
    ['PUT', '/api/updatetheme/:id'],
    ['PUT', '/api/user/:id'],
    ['PATCH', '/api/user/:id'],
    ['DELETE', '/api/user/:id'],
  ])('has no route %s %s: 404 and nothing changed', async (method, route) => {
    const path = route.replace(':id', alice.id);
    const body = { bio: 'owned', position: 'owned', pic: 'https://images.example.com/owned.png', theme: 'dark' };
    await expectDatabaseUnchanged(t.db, async () => {
      const response = await t.http[method.toLowerCase() as 'put' | 'patch' | 'delete'](path)
        .set('Authorization', mallory.auth)
        .send(body);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: { error: expect.any(String) },
      });
    });
  });

  it.each([
    ['/api/bio', { bio: 'Mallory was here' }],
    ['/api/position', { position: 'Mallory was here' }],
    ['/api/updatepic', { pic: 'https://images.example.com/mallory.png' }],
    ['/api/updatetheme', { theme: 'dark' }],
  ])('PUT %s with Alice’s id in the body and the query changes only the caller', async (path, change) => {
    const before = await everythingBut(mallory.id);
    const response = await t.http
      .put(path)
      .query({ id: alice.id, userId: alice.id })
      .set('Authorization', mallory.auth)
      .send({ ...ownershipClaims(), userName: alice.userName, email: alice.email, ...change });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ _id: mallory.id, ...change });
    expect(await everythingBut(mallory.id)).toBe(before);
    const mine = await t.db.selectFrom('users').select('role').where('id', '=', mallory.id).executeTakeFirstOrThrow();
    expect(mine.role).toBe('user');
  });

  it('cannot be made to follow or unfollow someone', async () => {
    await t.http.put('/api/follow').set('Authorization', alice.auth).send({ followId: carol.id }).expect(200);
    const followersOfCarol = async () =>
      (await t.db.selectFrom('follows').select('follower_id').where('followee_id', '=', carol.id).execute())
        .map((row) => row.follower_id)
        .sort();

    await t.http
      .put('/api/unfollow')
      .set('Authorization', mallory.auth)
      .send({ unfollowId: carol.id, followerId: alice.id, userId: alice.id, _id: alice.id })
      .expect(200);
    expect(await followersOfCarol()).toEqual([alice.id]);

    await t.http
      .put('/api/follow')
      .set('Authorization', mallory.auth)
      .send({ followId: carol.id, followerId: alice.id, userId: alice.id, _id: alice.id })
      .expect(200);
    expect(await followersOfCarol()).toEqual([alice.id, mallory.id].sort());
  });

  it('cannot be made to like or unlike a post', async () => {
    const post = await createPost(t, carol);
    await t.http.put('/api/like').set('Authorization', alice.auth).send({ postId: post._id }).expect(200);
    const likers = async () =>
      (await t.db.selectFrom('likes').select('user_id').where('post_id', '=', post._id).execute())
        .map((row) => row.user_id)
        .sort();

    await t.http
      .put('/api/unlike')
      .set('Authorization', mallory.auth)
      .send({ postId: post._id, userId: alice.id, user_id: alice.id })
      .expect(200);
    expect(await likers()).toEqual([alice.id]);

    await t.http
      .put('/api/like')
      .set('Authorization', mallory.auth)
      .send({ postId: post._id, userId: alice.id, user_id: alice.id })
      .expect(200);
    expect(await likers()).toEqual([alice.id, mallory.id].sort());
  });
});
