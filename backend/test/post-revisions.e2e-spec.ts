import type { Post, PostRevisionsReply } from '@techit/contract/api-types';
import { createPost, createUser, makeAdmin, type TestUser } from './support/factories';
import { expectedRevision } from './support/revision-factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = '0123456789abcdef01234567';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
  bob = await createUser(t);
  admin = await createUser(t);
  await makeAdmin(t, admin);
});
afterAll(() => t.close());

const ORIGINAL = {
  title: 'Original title',
  desc: 'The first words',
  category: 'Doubt',
  link1: 'https://github.com/original',
  link2: '',
};

/** The edit form as the web app sends it: every field, a blank pic keeping the picture. */
function edit(user: TestUser, id: string, fields: Partial<typeof ORIGINAL> = {}, view?: 'compact') {
  return t.http
    .put(`/api/editpost/${id}${view ? '?view=compact' : ''}`)
    .set('Authorization', user.auth)
    .send({ ...ORIGINAL, pic: '', ...fields });
}

function revisions(user: TestUser | null, id: string) {
  const request = t.http.get(`/api/posts/${id}/revisions`);
  if (user) request.set('Authorization', user.auth);
  return request;
}

async function freshPost(): Promise<Post> {
  return createPost(t, alice, ORIGINAL);
}

describe('edit history', () => {
  it('records each edit newest first, with exactly the fields it changed', async () => {
    const post = await freshPost();
    await edit(alice, post._id, { title: 'Second title', desc: 'The second words' }).expect(200);
    await edit(alice, post._id, {
      title: 'Second title',
      desc: 'The second words',
      category: 'Informative',
      link1: '',
    }).expect(200);

    const reply = (await revisions(alice, post._id).expect(200)).body as PostRevisionsReply;
    expect(reply).toEqual({
      revisions: [
        expectedRevision(alice, {
          category: { from: 'Doubt', to: 'Informative' },
          link1: { from: 'https://github.com/original', to: '' },
        }),
        expectedRevision(alice, {
          title: { from: 'Original title', to: 'Second title' },
          desc: { from: 'The first words', to: 'The second words' },
        }),
      ],
      nextCursor: null,
    });
    expect(reply.revisions[0].createdAt >= reply.revisions[1].createdAt).toBe(true);
  });

  it('sets editedAt on a real edit and carries it in every post reply, full and compact', async () => {
    const post = await freshPost();
    expect(post.editedAt).toBeNull();
    const edited = (await edit(alice, post._id, { title: 'Changed' }).expect(200)).body as Post;
    expect(edited.editedAt).toMatch(ISO);
    expect(edited.editedAt).toBe(edited.updatedAt);
    const [history] = ((await revisions(alice, post._id).expect(200)).body as PostRevisionsReply).revisions;
    expect(history.createdAt).toBe(edited.editedAt);

    const compactEdit = (await edit(alice, post._id, { title: 'Changed again' }, 'compact').expect(200)).body as Post;
    expect(compactEdit.editedAt).toMatch(ISO);
    const editedAt = compactEdit.editedAt;

    for (const view of ['full', 'compact']) {
      const detail = await t.http.get(`/api/posts/${post._id}`).query({ view }).expect(200);
      expect(detail.body.post.editedAt).toBe(editedAt);
      const feed = await t.http.get('/api/posts').query({ view }).expect(200);
      expect((feed.body.posts as Post[]).find((p) => p._id === post._id)?.editedAt).toBe(editedAt);
      const own = await t.http.get(`/api/userposts/${alice.id}`).query({ view }).expect(200);
      expect((own.body.userPosts as Post[]).find((p) => p._id === post._id)?.editedAt).toBe(editedAt);
    }
    const unedited = await t.http.get(`/api/posts/${(await freshPost())._id}`).expect(200);
    expect(unedited.body.post.editedAt).toBeNull();
  });

  it('an edit that changes nothing records no revision and moves neither editedAt nor updatedAt', async () => {
    const post = await freshPost();
    const before = await snapshot(t.db);
    const same = (await edit(alice, post._id).expect(200)).body as Post;
    expect(same).toMatchObject({ editedAt: null, updatedAt: post.updatedAt, title: ORIGINAL.title });
    expect(await snapshot(t.db)).toEqual(before);
    expect((await revisions(alice, post._id).expect(200)).body).toEqual({ revisions: [], nextCursor: null });
  });

  it('likes and comments never set editedAt nor record a revision', async () => {
    const post = await freshPost();
    await t.http.put('/api/like').set('Authorization', bob.auth).send({ postId: post._id }).expect(200);
    await t.http.put('/api/comment').set('Authorization', bob.auth).send({ postId: post._id, text: 'hi' }).expect(200);
    await t.http.put('/api/unlike').set('Authorization', bob.auth).send({ postId: post._id }).expect(200);
    const detail = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect(detail.body.post.editedAt).toBeNull();
    expect((await revisions(alice, post._id).expect(200)).body).toEqual({ revisions: [], nextCursor: null });
  });

  it('shows the history to the author and admins only: 403 for another member, 401 without a token, 404 for no post', async () => {
    const post = await freshPost();
    await edit(alice, post._id, { title: 'Changed' }).expect(200);
    expect((await revisions(admin, post._id).expect(200)).body.revisions).toHaveLength(1);
    expect((await revisions(bob, post._id).expect(403)).body).toEqual({
      error: "Only the author or an admin can see this post's history",
    });
    expect((await revisions(null, post._id).expect(401)).body).toEqual({ error: expect.any(String) });
    expect((await revisions(alice, MISSING_ID).expect(404)).body).toEqual({ error: "This post doesn't exist" });
    expect((await revisions(alice, 'not-an-id').expect(404)).body).toEqual({ error: "This post doesn't exist" });
  });

  it('edits racing on one post each record what they really replaced: the history chains', async () => {
    const post = await freshPost();
    const titles = ['Race 1', 'Race 2', 'Race 3', 'Race 4', 'Race 5'];
    await Promise.all(titles.map((title) => edit(alice, post._id, { title }).expect(200)));
    const { revisions: newestFirst } = (await revisions(alice, post._id).expect(200)).body as PostRevisionsReply;
    const oldestFirst = [...newestFirst].reverse().map((revision) => revision.changes.title);
    expect(oldestFirst).toHaveLength(titles.length);
    expect(oldestFirst[0]?.from).toBe(ORIGINAL.title);
    for (let i = 1; i < oldestFirst.length; i += 1) expect(oldestFirst[i]?.from).toBe(oldestFirst[i - 1]?.to);
    const stored = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect(stored.body.post.title).toBe(oldestFirst[oldestFirst.length - 1]?.to);
    expect(new Set(oldestFirst.map((change) => change?.to))).toEqual(new Set(titles));
  });

  it('a refused edit (another member) records nothing', async () => {
    const post = await freshPost();
    const before = await snapshot(t.db);
    await edit(bob, post._id, { title: 'Hijacked' }).expect(403);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('deleting the post removes its revisions', async () => {
    const post = await freshPost();
    await edit(alice, post._id, { title: 'Changed' }).expect(200);
    await edit(alice, post._id, { title: 'Changed twice' }).expect(200);
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('post_revisions')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('post_id', '=', post._id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(2);
    await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', alice.auth).expect(200);
    expect(await count()).toBe(0);
  });
});
