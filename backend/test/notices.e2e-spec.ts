import type { Notice } from '@techit/contract/api-types';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import { createNotice, createUser, makeAdmin, type TestUser, text } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

const OBJECT_ID = /^[0-9a-f]{24}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = 'ffffffffffffffffffffffff';
/** 'https://example.com/' is 20 characters. */
const urlOfLength = (length: number) => `https://example.com/${text(length - 20)}`;

function ids(notices: Notice[]): string[] {
  return notices.map((notice) => notice._id);
}

describe('POST /api/createnotice', () => {
  let t: TestApp;
  let author: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    author = await createUser(t);
  });
  afterAll(() => t.close());

  const create = (body: unknown, auth = author.auth) =>
    t.http
      .post('/api/createnotice')
      .set('Authorization', auth)
      .send(body as object);

  /** Sends a request that must be refused with `status`, and checks the database did not change. */
  async function expectRefused(body: unknown, status = 400, auth = author.auth): Promise<string> {
    const before = await snapshot(t.db);
    const response = await create(body, auth).expect(status);
    expect(response.body).toEqual({ error: expect.any(String) });
    expect(await snapshot(t.db)).toBe(before);
    return response.body.error as string;
  }

  it('creates a notice and answers 201 with exactly the notice shape', async () => {
    const response = await create({
      desc: 'Meet-up on Friday',
      tags: ['events', 'go'],
      links: ['https://example.com/meetup'],
    }).expect(201);
    expect(response.body).toEqual({
      notice: {
        _id: expect.stringMatching(OBJECT_ID),
        desc: 'Meet-up on Friday',
        descHtml: '<p>Meet-up on Friday</p>\n',
        links: ['https://example.com/meetup'],
        tags: ['events', 'go'],
        postedBy: { _id: author.id, userName: author.userName, pic: DEFAULT_PROFILE_PIC },
        createdAt: expect.stringMatching(ISO_DATE),
      },
    });
    expect(Math.abs(Date.parse(response.body.notice.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('stores the notice so it is listed afterwards', async () => {
    const { body } = await create({ desc: 'Listed afterwards' }).expect(201);
    const list = await t.http.get(`/api/usernotices/${author.id}`).expect(200);
    expect(list.body.notices).toContainEqual(body.notice);
  });

  it('defaults tags and links to empty lists when they are not sent', async () => {
    const { body } = await create({ desc: 'No extras' }).expect(201);
    expect(body.notice).toMatchObject({ desc: 'No extras', tags: [], links: [] });
  });

  it('trims the description', async () => {
    const { body } = await create({ desc: '   padded   ' }).expect(201);
    expect(body.notice.desc).toBe('padded');
  });

  it('ignores fields the client may not set (_id, postedBy, createdAt)', async () => {
    const other = await createUser(t);
    const { body } = await create({
      desc: 'Forged fields',
      _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      postedBy: { _id: other.id, userName: other.userName, pic: 'https://evil.example/x.png' },
      createdAt: '2000-01-01T00:00:00.000Z',
    }).expect(201);
    expect(body.notice._id).not.toBe('aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(body.notice.postedBy).toEqual({ _id: author.id, userName: author.userName, pic: DEFAULT_PROFILE_PIC });
    expect(body.notice.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  describe('desc', () => {
    it('accepts a description of exactly 1000 characters', async () => {
      const { body } = await create({ desc: text(1000, 'd') }).expect(201);
      expect(body.notice.desc).toHaveLength(1000);
    });

    it('refuses a description of 1001 characters with 400', async () => {
      expect(await expectRefused({ desc: text(1001, 'd') })).toMatch(/1000/);
    });

    it('refuses a blank description with 400', async () => {
      expect(await expectRefused({ desc: '   ' })).toMatch(/required/i);
    });

    it('refuses a missing description with 400', async () => {
      await expectRefused({ tags: ['x'] });
    });

    it('refuses a description that is not text with 400', async () => {
      expect(await expectRefused({ desc: 42 })).toMatch(/text/);
    });
  });

  describe('links', () => {
    it('accepts exactly 3 http(s) links', async () => {
      const links = ['https://a.example/1', 'http://b.example/2', 'https://c.example/3?q=1#x'];
      const { body } = await create({ desc: 'Three links', links }).expect(201);
      expect(body.notice.links).toEqual(links);
    });

    it('refuses 4 links with 400', async () => {
      const error = await expectRefused({
        desc: 'Four links',
        links: ['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example'],
      });
      expect(error).toMatch(/3 links/);
    });

    it('drops blank entries, as the web form sends for empty link inputs', async () => {
      const { body } = await create({ desc: 'Blank inputs', links: ['', 'https://a.example/x', '  '] }).expect(201);
      expect(body.notice.links).toEqual(['https://a.example/x']);
    });

    it('counts only the non-blank entries toward the limit of 3', async () => {
      const links = ['https://a.example', '', 'https://b.example', 'https://c.example', ''];
      const { body } = await create({ desc: 'Three real links', links }).expect(201);
      expect(body.notice.links).toEqual(['https://a.example', 'https://b.example', 'https://c.example']);
    });

    it('accepts a link of exactly 2048 characters', async () => {
      const link = urlOfLength(2048);
      expect(link).toHaveLength(2048);
      const { body } = await create({ desc: 'Long link', links: [link] }).expect(201);
      expect(body.notice.links).toEqual([link]);
    });

    it('refuses a link of 2049 characters with 400', async () => {
      const link = urlOfLength(2049);
      expect(link).toHaveLength(2049);
      expect(await expectRefused({ desc: 'Too long link', links: [link] })).toMatch(/2048/);
    });

    it('refuses a javascript: link with 400', async () => {
      expect(await expectRefused({ desc: 'XSS', links: ['javascript:alert(1)'] })).toMatch(/http/);
    });

    it('refuses a data: link with 400', async () => {
      await expectRefused({ desc: 'Data', links: ['data:text/html,<script>alert(1)</script>'] });
    });

    it('accepts a link typed without a scheme, adding https:// (links are free text in the spec)', async () => {
      const typed = ['example.com/no-scheme', '//b.example/x', 'localhost:3000/y'];
      const { body } = await create({ desc: 'Typed links', links: typed }).expect(201);
      expect(body.notice.links).toEqual([
        'https://example.com/no-scheme',
        'https://b.example/x',
        'https://localhost:3000/y',
      ]);
    });

    it('refuses vbscript:, mailto: and other schemes that are not http(s) with 400', async () => {
      for (const link of ['vbscript:msgbox(1)', 'mailto:a@b.example', 'ftp://files.example/x', 'JavaScript:alert(1)']) {
        expect(await expectRefused({ desc: 'Other scheme', links: [link] })).toMatch(/http/);
      }
    });

    it('refuses a link that is not a URL with 400', async () => {
      await expectRefused({ desc: 'Not a URL', links: ['not a link'] });
    });

    it('refuses a link that is not text with 400', async () => {
      expect(await expectRefused({ desc: 'Number link', links: [123] })).toMatch(/http/);
    });

    it('refuses links that are not a list with 400', async () => {
      expect(await expectRefused({ desc: 'Not a list', links: 'notalist' })).toMatch(/list/);
    });
  });

  describe('tags', () => {
    it('accepts 5 tags of 30 characters', async () => {
      const tags = ['a', 'b', 'c', 'd', text(30, 't')];
      const { body } = await create({ desc: 'Five tags', tags }).expect(201);
      expect(body.notice.tags).toEqual(tags);
    });

    it('refuses 6 tags with 400', async () => {
      expect(await expectRefused({ desc: 'Six tags', tags: ['a', 'b', 'c', 'd', 'e', 'f'] })).toMatch(/5 tags/);
    });

    it('refuses a tag of 31 characters with 400', async () => {
      expect(await expectRefused({ desc: 'Long tag', tags: [text(31, 't')] })).toMatch(/30/);
    });

    it('refuses a tag that is not text with 400', async () => {
      expect(await expectRefused({ desc: 'Number tag', tags: [7] })).toMatch(/text/);
    });

    it('trims tags and drops blank ones', async () => {
      const { body } = await create({ desc: 'Padded tags', tags: ['  news ', '', '   '] }).expect(201);
      expect(body.notice.tags).toEqual(['news']);
    });

    it('refuses tags that are not a list with 400', async () => {
      expect(await expectRefused({ desc: 'Tags not a list', tags: 'news' })).toMatch(/list/);
    });
  });

  it('refuses a request without a token with 401', async () => {
    const before = await snapshot(t.db);
    const response = await t.http.post('/api/createnotice').send({ desc: 'Anonymous' }).expect(401);
    expect(response.body).toEqual({ error: expect.any(String) });
    expect(await snapshot(t.db)).toBe(before);
  });

  it('refuses an invalid token with 401', async () => {
    await expectRefused({ desc: 'Bad token' }, 401, 'Bearer not.a.jwt');
  });

  it('refuses a body that is not JSON with 400', async () => {
    const before = await snapshot(t.db);
    const response = await t.http
      .post('/api/createnotice')
      .set('Authorization', author.auth)
      .set('Content-Type', 'application/json')
      .send('{"desc": ')
      .expect(400);
    expect(response.body).toEqual({ error: expect.any(String) });
    expect(await snapshot(t.db)).toBe(before);
  });
});

describe('DELETE /api/deletenotice/:id', () => {
  let t: TestApp;
  let author: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    author = await createUser(t);
    stranger = await createUser(t);
    admin = await createUser(t);
    await makeAdmin(t, admin);
  });
  afterAll(() => t.close());

  const remove = (id: string, auth?: string) => {
    const call = t.http.delete(`/api/deletenotice/${id}`);
    return auth ? call.set('Authorization', auth) : call;
  };

  async function expectRefused(id: string, status: number, auth?: string): Promise<void> {
    const before = await snapshot(t.db);
    const response = await remove(id, auth).expect(status);
    expect(response.body).toEqual({ error: expect.any(String) });
    expect(await snapshot(t.db)).toBe(before);
  }

  it('lets the author delete a notice and answers with the deleted notice', async () => {
    const notice = await createNotice(t, author, { desc: 'To delete', tags: ['x'], links: ['https://example.com'] });
    const response = await remove(notice._id, author.auth).expect(200);
    expect(response.body).toEqual(notice);
    const list = await t.http.get(`/api/usernotices/${author.id}`).expect(200);
    expect(ids(list.body.notices)).not.toContain(notice._id);
  });

  it('answers 404 when the notice was already deleted', async () => {
    const notice = await createNotice(t, author);
    await remove(notice._id, author.auth).expect(200);
    await expectRefused(notice._id, 404, author.auth);
  });

  it("refuses another user's delete with 403 and leaves the notice in place", async () => {
    const notice = await createNotice(t, author);
    await expectRefused(notice._id, 403, stranger.auth);
    const list = await t.http.get(`/api/usernotices/${author.id}`).expect(200);
    expect(list.body.notices).toContainEqual(notice);
  });

  it("lets an admin delete another user's notice", async () => {
    const notice = await createNotice(t, author);
    const response = await remove(notice._id, admin.auth).expect(200);
    expect(response.body).toEqual(notice);
    await expectRefused(notice._id, 404, author.auth);
  });

  it('refuses a request without a token with 401', async () => {
    const notice = await createNotice(t, author);
    await expectRefused(notice._id, 401);
  });

  it('answers 404 for an unknown id', async () => {
    await createNotice(t, author);
    await expectRefused(UNKNOWN_ID, 404, author.auth);
  });

  it('answers 404 for a malformed id', async () => {
    await createNotice(t, author);
    await expectRefused('not-an-id', 404, author.auth);
    await expectRefused('abc', 404, author.auth);
    await expectRefused(`${UNKNOWN_ID}0`, 404, author.auth);
  });

  it('checks the id before the permission: an unknown id is 404 even for a stranger', async () => {
    await expectRefused(UNKNOWN_ID, 404, stranger.auth);
  });
});

describe('GET /api/allnotices', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  /** Newest first. */
  let created: Notice[];
  beforeAll(async () => {
    t = await startTestApp();
    alice = await createUser(t);
    bob = await createUser(t);
    created = [];
    for (let i = 0; i < 23; i += 1) created.unshift(await createNotice(t, i % 2 === 0 ? alice : bob));
  });
  afterAll(() => t.close());

  it('answers the newest 20 notices by default, with a cursor for more', async () => {
    const { body } = await t.http.get('/api/allnotices').expect(200);
    expect(Object.keys(body).sort()).toEqual(['nextCursor', 'notices']);
    expect(body.notices).toEqual(created.slice(0, 20));
    expect(body.nextCursor).toEqual(expect.any(String));
  });

  it('answers later pages by page number', async () => {
    const { body } = await t.http.get('/api/allnotices?page=2').expect(200);
    expect(body).toEqual({ notices: created.slice(20), nextCursor: null });
  });

  it('honours limit', async () => {
    const { body } = await t.http.get('/api/allnotices?limit=5&page=3').expect(200);
    expect(ids(body.notices)).toEqual(ids(created.slice(10, 15)));
  });

  it('accepts a limit of 50', async () => {
    const { body } = await t.http.get('/api/allnotices?limit=50').expect(200);
    expect(body).toEqual({ notices: created, nextCursor: null });
  });

  it('refuses a limit of 51 with 400', async () => {
    const response = await t.http.get('/api/allnotices?limit=51').expect(400);
    expect(response.body).toEqual({ error: expect.stringMatching(/50/) });
  });

  it('refuses a limit of 0 with 400', async () => {
    const response = await t.http.get('/api/allnotices?limit=0').expect(400);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('refuses a page of 0 and a page that is not a number with 400', async () => {
    expect((await t.http.get('/api/allnotices?page=0').expect(400)).body).toEqual({ error: expect.any(String) });
    expect((await t.http.get('/api/allnotices?page=two').expect(400)).body).toEqual({ error: expect.any(String) });
  });

  it('refuses a cursor it did not issue with 400', async () => {
    const response = await t.http.get('/api/allnotices?cursor=bm90LWEtY3Vyc29y').expect(400);
    expect(response.body).toEqual({ error: expect.stringMatching(/cursor/) });
  });

  it('answers an empty page past the end', async () => {
    const { body } = await t.http.get('/api/allnotices?page=9').expect(200);
    expect(body).toEqual({ notices: [], nextCursor: null });
  });

  it('pages through every notice by cursor exactly once, newest first', async () => {
    const seen: Notice[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `limit=7&cursor=${encodeURIComponent(cursor)}` : 'limit=7';
      const { body } = await t.http.get(`/api/allnotices?${query}`).expect(200);
      seen.push(...(body.notices as Notice[]));
      cursor = body.nextCursor as string | null;
      pages += 1;
    } while (cursor && pages < 10);
    expect(cursor).toBeNull();
    expect(ids(seen)).toEqual(ids(created));
  });

  it('never repeats or skips a notice when one is posted between cursor pages', async () => {
    const first = await t.http.get('/api/allnotices?limit=10').expect(200);
    const inserted = await createNotice(t, bob, { desc: 'Posted between pages' });
    const second = await t.http
      .get(`/api/allnotices?limit=10&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      .expect(200);
    const third = await t.http
      .get(`/api/allnotices?limit=10&cursor=${encodeURIComponent(second.body.nextCursor)}`)
      .expect(200);
    expect(third.body.nextCursor).toBeNull();
    const seen = [...first.body.notices, ...second.body.notices, ...third.body.notices] as Notice[];
    expect(ids(seen)).toEqual(ids(created));
    expect(ids(seen)).not.toContain(inserted._id);
    // The new notice is at the top of a fresh first page.
    const fresh = await t.http.get('/api/allnotices?limit=1').expect(200);
    expect(ids(fresh.body.notices)).toEqual([inserted._id]);
    await t.http.delete(`/api/deletenotice/${inserted._id}`).set('Authorization', bob.auth).expect(200);
  });

  it('lists notices of every author', async () => {
    const { body } = await t.http.get('/api/allnotices?limit=50').expect(200);
    const authors = new Set((body.notices as Notice[]).map((notice) => notice.postedBy._id));
    expect(authors).toEqual(new Set([alice.id, bob.id]));
  });
});

describe('GET /api/usernotices/:userId', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  /** Alice's, newest first. */
  let alices: Notice[];
  beforeAll(async () => {
    t = await startTestApp();
    alice = await createUser(t);
    bob = await createUser(t);
    alices = [];
    for (let i = 0; i < 22; i += 1) {
      alices.unshift(await createNotice(t, alice));
      if (i % 3 === 0) await createNotice(t, bob);
    }
  });
  afterAll(() => t.close());

  it("answers only that user's notices, newest first, 20 by default", async () => {
    const { body } = await t.http.get(`/api/usernotices/${alice.id}`).expect(200);
    expect(body.notices).toEqual(alices.slice(0, 20));
    expect(body.nextCursor).toEqual(expect.any(String));
  });

  it('answers later pages by page number', async () => {
    const { body } = await t.http.get(`/api/usernotices/${alice.id}?page=2`).expect(200);
    expect(body).toEqual({ notices: alices.slice(20), nextCursor: null });
  });

  it("pages by cursor through only that user's notices", async () => {
    const first = await t.http.get(`/api/usernotices/${alice.id}?limit=15`).expect(200);
    await createNotice(t, alice, { desc: 'Posted between pages' });
    const second = await t.http
      .get(`/api/usernotices/${alice.id}?limit=15&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      .expect(200);
    expect(second.body.nextCursor).toBeNull();
    expect(ids([...first.body.notices, ...second.body.notices])).toEqual(ids(alices));
  });

  it('answers an empty list for a user without notices', async () => {
    const quiet = await createUser(t);
    const { body } = await t.http.get(`/api/usernotices/${quiet.id}`).expect(200);
    expect(body).toEqual({ notices: [], nextCursor: null });
  });

  it('refuses a limit of 51 with 400', async () => {
    const response = await t.http.get(`/api/usernotices/${alice.id}?limit=51`).expect(400);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('answers 404 for an unknown user', async () => {
    const response = await t.http.get(`/api/usernotices/${UNKNOWN_ID}`).expect(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('answers 404 for a malformed user id', async () => {
    const response = await t.http.get('/api/usernotices/not-an-id').expect(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('does not treat a notice id as a user id', async () => {
    const response = await t.http.get(`/api/usernotices/${alices[0]._id}`).expect(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });
});
