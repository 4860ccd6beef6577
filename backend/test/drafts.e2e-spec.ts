import type { Draft } from '@techit/contract/api-types';
import { LIMITS } from '@techit/contract/limits';
import { createDraft, publish, readDraft } from './support/draft-factories';
import { createPost, createUser, makeAdmin, type TestUser, text } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const OBJECT_ID = /^[0-9a-f]{24}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = 'ffffffffffffffffffffffff';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function ids(drafts: Draft[]): string[] {
  return drafts.map((draft) => draft._id);
}

async function draftRows(): Promise<number> {
  const rows = await t.db.selectFrom('drafts').select('id').execute();
  return rows.length;
}

describe('POST /api/drafts, GET, PUT, DELETE /api/drafts/:id', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createUser(t);
  });

  it('creates a post draft with version 1 and every field exactly as typed', async () => {
    const body = '# Title\n\n```ts\nconst x = 1;\n```\n  trailing spaces  ';
    const response = await t.http
      .post('/api/drafts')
      .set('Authorization', owner.auth)
      .send({
        kind: 'post',
        title: '  Half a tit',
        desc: 'desc ',
        body,
        category: '',
        link1: 'github.co',
        pic: '',
        tags: ['rust', '#Half'],
      })
      .expect(201);
    expect(response.body).toEqual({
      draft: {
        _id: expect.stringMatching(OBJECT_ID),
        kind: 'post',
        postId: null,
        version: 1,
        title: '  Half a tit',
        desc: 'desc ',
        body,
        category: '',
        link1: 'github.co',
        pic: '',
        tags: ['rust', '#Half'],
        createdAt: expect.stringMatching(ISO_DATE),
        updatedAt: expect.stringMatching(ISO_DATE),
      },
    });
    expect(await readDraft(t, owner, response.body.draft._id as string)).toEqual(response.body.draft);
  });

  it('creates an empty draft and a notice draft with up to 3 half-typed links', async () => {
    expect(await createDraft(t, owner)).toMatchObject({ kind: 'post', version: 1, postId: null });
    const notice = await createDraft(t, owner, {
      kind: 'notice',
      desc: text(LIMITS.noticeDescMax),
      links: ['htt', ''],
    });
    expect(notice).toMatchObject({ kind: 'notice', desc: text(LIMITS.noticeDescMax), links: ['htt', ''] });
  });

  it('saves with the stored version: the fields are replaced and the version goes up by one', async () => {
    const draft = await createDraft(t, owner, { title: 'First', body: 'one' });
    const response = await t.http
      .put(`/api/drafts/${draft._id}`)
      .set('Authorization', owner.auth)
      .send({ version: 1, title: 'Second', desc: 'two' })
      .expect(200);
    expect(response.body.draft).toEqual({
      ...draft,
      version: 2,
      title: 'Second',
      desc: 'two',
      body: undefined,
      updatedAt: expect.stringMatching(ISO_DATE),
    });
    expect(response.body.draft).not.toHaveProperty('body');
    expect(await readDraft(t, owner, draft._id)).toEqual(response.body.draft);
  });

  it('refuses a save from an older version with 409 and the stored draft, changing nothing', async () => {
    const draft = await createDraft(t, owner, { title: 'Tab A' });
    const saved = await t.http
      .put(`/api/drafts/${draft._id}`)
      .set('Authorization', owner.auth)
      .send({ version: 1, title: 'Tab A, more' })
      .expect(200);
    const stale = await t.http
      .put(`/api/drafts/${draft._id}`)
      .set('Authorization', owner.auth)
      .send({ version: 1, title: 'Tab B' })
      .expect(409);
    expect(stale.body).toEqual({
      error: 'This draft was changed elsewhere (version 2 is stored; this save started from 1)',
      draft: saved.body.draft,
    });
    expect(await readDraft(t, owner, draft._id)).toEqual(saved.body.draft);
  });

  it('lets exactly one of two saves racing from the same version win', async () => {
    const draft = await createDraft(t, owner, { body: 'start' });
    const save = (body: string) =>
      t.http.put(`/api/drafts/${draft._id}`).set('Authorization', owner.auth).send({ version: 1, body });
    const replies = await Promise.all([save('from tab one'), save('from tab two')]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const winner = replies.find((reply) => reply.status === 200)?.body.draft as Draft;
    const loser = replies.find((reply) => reply.status === 409)?.body as { draft: Draft };
    expect(winner.version).toBe(2);
    expect(loser.draft).toEqual(winner);
    expect(await readDraft(t, owner, draft._id)).toEqual(winner);
  });

  it('deletes a draft: the reply is the draft, then it is gone', async () => {
    const draft = await createDraft(t, owner, { title: 'Bye' });
    const response = await t.http.delete(`/api/drafts/${draft._id}`).set('Authorization', owner.auth).expect(200);
    expect(response.body).toEqual(draft);
    expect(await readDraft(t, owner, draft._id)).toBe(404);
    await t.http.delete(`/api/drafts/${draft._id}`).set('Authorization', owner.auth).expect(404);
  });

  it('answers 401 without a token and 404 for unknown or malformed ids', async () => {
    await t.http.get('/api/drafts').expect(401);
    await t.http.post('/api/drafts').send({ kind: 'post' }).expect(401);
    for (const id of [UNKNOWN_ID, 'not-an-id']) {
      await t.http.get(`/api/drafts/${id}`).set('Authorization', owner.auth).expect(404);
      await t.http.put(`/api/drafts/${id}`).set('Authorization', owner.auth).send({ version: 1 }).expect(404);
      await t.http.delete(`/api/drafts/${id}`).set('Authorization', owner.auth).expect(404);
    }
  });
});

describe('GET /api/drafts', () => {
  it("lists only the caller's drafts, most recently saved first, by cursor", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const first = await createDraft(t, owner, { title: 'first' });
    const second = await createDraft(t, owner, { title: 'second' });
    const third = await createDraft(t, owner, { kind: 'notice', desc: 'third' });
    await createDraft(t, other, { title: 'not yours' });
    // Saving the oldest makes it the most recent.
    await t.http
      .put(`/api/drafts/${first._id}`)
      .set('Authorization', owner.auth)
      .send({ version: 1, title: 'first, saved again' })
      .expect(200);

    const all = await t.http.get('/api/drafts').set('Authorization', owner.auth).expect(200);
    expect(ids(all.body.drafts as Draft[])).toEqual([first._id, third._id, second._id]);
    expect(all.body.nextCursor).toBeNull();

    const page1 = await t.http.get('/api/drafts?limit=2').set('Authorization', owner.auth).expect(200);
    expect(ids(page1.body.drafts as Draft[])).toEqual([first._id, third._id]);
    const page2 = await t.http
      .get(`/api/drafts?limit=2&cursor=${page1.body.nextCursor as string}`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(page2.body).toEqual({ drafts: [expect.objectContaining({ _id: second._id })], nextCursor: null });
  });
});

describe("someone else's draft", () => {
  let owner: TestUser;
  let stranger: TestUser;
  let draft: Draft;
  beforeAll(async () => {
    owner = await createUser(t);
    stranger = await createUser(t);
    await makeAdmin(t, stranger);
    draft = await createDraft(t, owner, { title: 'Private thoughts', body: 'secret' });
  });

  it('is 404 to read, save or delete, even for an admin, and stays as it was', async () => {
    const read = await t.http.get(`/api/drafts/${draft._id}`).set('Authorization', stranger.auth).expect(404);
    expect(read.body).toEqual({ error: "This draft doesn't exist" });
    await t.http
      .put(`/api/drafts/${draft._id}`)
      .set('Authorization', stranger.auth)
      .send({ version: 1, title: 'Overwritten' })
      .expect(404);
    await t.http.delete(`/api/drafts/${draft._id}`).set('Authorization', stranger.auth).expect(404);
    expect(await readDraft(t, owner, draft._id)).toEqual(draft);
  });

  it('is not in their list', async () => {
    const list = await t.http.get('/api/drafts').set('Authorization', stranger.auth).expect(200);
    expect(ids(list.body.drafts as Draft[])).not.toContain(draft._id);
  });
});

describe('edit drafts (postId)', () => {
  let author: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    author = await createUser(t);
    other = await createUser(t);
  });

  it('belongs to the post: one per post, found with ?postId=', async () => {
    const post = await createPost(t, author);
    const draft = await createDraft(t, author, { postId: post._id, title: 'Better title' });
    expect(draft).toMatchObject({ postId: post._id, version: 1 });
    const again = await t.http
      .post('/api/drafts')
      .set('Authorization', author.auth)
      .send({ kind: 'post', postId: post._id, title: 'Another tab' })
      .expect(409);
    expect(again.body).toEqual({ error: expect.stringMatching(/already has an edit draft/), draft });
    const found = await t.http.get(`/api/drafts?postId=${post._id}`).set('Authorization', author.auth).expect(200);
    expect(found.body).toEqual({ drafts: [draft], nextCursor: null });
    const none = await t.http.get(`/api/drafts?postId=${post._id}`).set('Authorization', other.auth).expect(200);
    expect(none.body).toEqual({ drafts: [], nextCursor: null });
  });

  it("is refused for someone else's post (403, even an admin: only the author edits) and a missing one (404)", async () => {
    const post = await createPost(t, author);
    const before = await draftRows();
    const refused = await t.http
      .post('/api/drafts')
      .set('Authorization', other.auth)
      .send({ kind: 'post', postId: post._id, title: 'Not mine' })
      .expect(403);
    expect(refused.body).toEqual({ error: expect.any(String) });
    await makeAdmin(t, other);
    await t.http
      .post('/api/drafts')
      .set('Authorization', other.auth)
      .send({ kind: 'post', postId: post._id })
      .expect(403);
    await t.http
      .post('/api/drafts')
      .set('Authorization', author.auth)
      .send({ kind: 'post', postId: UNKNOWN_ID })
      .expect(404);
    await t.http
      .post('/api/drafts')
      .set('Authorization', author.auth)
      .send({ kind: 'notice', postId: post._id })
      .expect(400);
    expect(await draftRows()).toBe(before);
  });

  it('goes when its post is deleted', async () => {
    const post = await createPost(t, author);
    const draft = await createDraft(t, author, { postId: post._id, body: 'edit in progress' });
    await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', author.auth).expect(200);
    expect(await readDraft(t, author, draft._id)).toBe(404);
  });
});

describe('a removed account', () => {
  it('takes its drafts with it (the app has no account deletion; an operator removing the row does)', async () => {
    const gone = await createUser(t);
    const post = await createPost(t, gone);
    await createDraft(t, gone, { title: 'new' });
    await createDraft(t, gone, { postId: post._id, title: 'edit' });
    await t.db.deleteFrom('users').where('id', '=', gone.id).execute();
    expect(await t.db.selectFrom('drafts').select('id').where('user_id', '=', gone.id).execute()).toEqual([]);
  });
});

describe('limits and bad input (400, nothing stored)', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createUser(t);
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['a body over 40,000 characters', { body: text(LIMITS.postBodyMax + 1) }, /body must be at most 40000 characters/],
    ['a title over 80', { title: text(LIMITS.postTitleMax + 1) }, /title must be at most 80 characters/],
    [
      'a post desc over 400',
      { desc: text(LIMITS.postDescMax + 1) },
      /desc must be at most 400 characters in a post draft/,
    ],
    ['a notice desc over 1000', { kind: 'notice', desc: text(LIMITS.noticeDescMax + 1) }, /desc must be at most 1000/],
    ['a link over 2048', { link1: text(LIMITS.linkMax + 1) }, /link1 must be at most 2048 characters/],
    ['4 notice links', { kind: 'notice', links: ['a', 'b', 'c', 'd'] }, /at most 3 links/],
    ['a notice draft with a title', { kind: 'notice', title: 'x' }, /A notice draft has no title/],
    ['a post draft with links', { links: ['x'] }, /A post draft has no links/],
    ['5 post tags', { tags: ['a', 'b', 'c', 'd', 'e'] }, /at most 4 tags/],
    ['a tag over 30', { tags: [text(LIMITS.postTagMax + 2)] }, /Each tag must be at most 30 characters/],
    ['tags as text', { tags: 'rust' }, /tags must be a list/],
    ['a notice draft with tags', { kind: 'notice', tags: ['rust'] }, /A notice draft has no tags/],
    ['an unknown kind', { kind: 'article' }, /kind must be post or notice/],
    ['an unknown category', { category: 'Cooking' }, /category must be one of/],
    ['a number as a title', { title: 5 }, /title must be text/],
  ];

  it.each(cases)('refuses %s', async (_name, body, message) => {
    const before = await draftRows();
    const response = await t.http
      .post('/api/drafts')
      .set('Authorization', owner.auth)
      .send({ kind: 'post', ...body })
      .expect(400);
    expect(response.body).toEqual({ error: expect.stringMatching(message) });
    expect(await draftRows()).toBe(before);
  });

  it('takes a body of exactly 40,000 characters, and refuses a save over it leaving the draft as it was', async () => {
    const draft = await createDraft(t, owner, { body: text(LIMITS.postBodyMax) });
    expect(draft.body).toHaveLength(LIMITS.postBodyMax);
    const response = await t.http
      .put(`/api/drafts/${draft._id}`)
      .set('Authorization', owner.auth)
      .send({ version: 1, body: text(LIMITS.postBodyMax + 1) })
      .expect(400);
    expect(response.body).toEqual({ error: 'body must be at most 40000 characters' });
    expect(await readDraft(t, owner, draft._id)).toEqual(draft);
  });

  it('refuses a version no integer column holds (2^31, 2^53, 1e20) with 400, where PostgreSQL failed (500)', async () => {
    const draft = await createDraft(t, owner);
    for (const version of [2 ** 31, 2 ** 53, 1e20]) {
      const response = await t.http
        .put(`/api/drafts/${draft._id}`)
        .set('Authorization', owner.auth)
        .send({ version, title: 'x' })
        .expect(400);
      expect(response.body).toEqual({ error: 'version must be at most 2147483647' });
    }
    expect(await readDraft(t, owner, draft._id)).toEqual(draft);
  });

  it('refuses a save without a version', async () => {
    const draft = await createDraft(t, owner);
    const response = await t.http
      .put(`/api/drafts/${draft._id}`)
      .set('Authorization', owner.auth)
      .send({ title: 'x' })
      .expect(400);
    expect(response.body).toEqual({ error: 'version is required' });
  });
});

describe('publishing with draftId', () => {
  let author: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    author = await createUser(t);
    other = await createUser(t);
  });

  it('createpost deletes the caller’s draft once the post is created', async () => {
    const draft = await createDraft(t, author, { title: 'Ready' });
    const response = await publish(t, author, 'createpost', {
      title: 'Ready',
      desc: 'Published',
      draftId: draft._id,
    }).expect(201);
    expect(response.body.post).not.toHaveProperty('draftId');
    expect(await readDraft(t, author, draft._id)).toBe(404);
  });

  it('createnotice deletes the caller’s draft once the notice is created', async () => {
    const draft = await createDraft(t, author, { kind: 'notice', desc: 'Meet-up' });
    await publish(t, author, 'createnotice', { desc: 'Meet-up', draftId: draft._id }).expect(201);
    expect(await readDraft(t, author, draft._id)).toBe(404);
  });

  it('editpost deletes the edit draft once the post is saved', async () => {
    const post = await createPost(t, author);
    const draft = await createDraft(t, author, { postId: post._id, title: 'Edited' });
    await publish(t, author, `editpost/${post._id}`, {
      title: 'Edited',
      desc: 'Still here',
      category: 'Informative',
      draftId: draft._id,
    }).expect(200);
    expect(await readDraft(t, author, draft._id)).toBe(404);
  });

  it("with someone else's draftId creates the post and leaves that draft untouched", async () => {
    const theirs = await createDraft(t, other, { title: 'Theirs' });
    await publish(t, author, 'createpost', { title: 'Mine', desc: 'Mine', draftId: theirs._id }).expect(201);
    await publish(t, author, 'createnotice', { desc: 'Mine', draftId: theirs._id }).expect(201);
    expect(await readDraft(t, other, theirs._id)).toEqual(theirs);
  });

  it('with an unknown or malformed draftId still publishes', async () => {
    for (const draftId of [UNKNOWN_ID, 'nonsense']) {
      await publish(t, author, 'createpost', { title: 'Anyway', desc: 'Anyway', draftId }).expect(201);
    }
  });

  it('a failed createpost, createnotice or editpost keeps the draft', async () => {
    const draft = await createDraft(t, author, { title: 'Not yet' });
    await publish(t, author, 'createpost', { title: '', desc: 'No title', draftId: draft._id }).expect(400);
    await publish(t, author, 'createnotice', { desc: text(LIMITS.noticeDescMax + 1), draftId: draft._id }).expect(400);
    const post = await createPost(t, other);
    await publish(t, author, `editpost/${post._id}`, {
      title: 'Not mine',
      desc: 'x',
      category: 'Informative',
      draftId: draft._id,
    }).expect(403);
    expect(await readDraft(t, author, draft._id)).toEqual(draft);
  });

  it('keeps the Idempotency-Key replay of createpost: the repeat answers the same post', async () => {
    const draft = await createDraft(t, author, { title: 'Once' });
    const send = () =>
      t.http
        .post('/api/createpost')
        .set('Authorization', author.auth)
        .set('Idempotency-Key', `draft-${draft._id}`)
        .send({ title: 'Once', desc: 'Once', draftId: draft._id });
    const first = await send().expect(201);
    const repeat = await send().expect(201);
    expect(repeat.body).toEqual(first.body);
    expect(await readDraft(t, author, draft._id)).toBe(404);
  });
});
