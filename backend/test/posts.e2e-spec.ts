import { JwtService } from '@nestjs/jwt';
import type { Post } from '@techit/contract/api-types';
import type { PostView } from '@techit/contract/enums';
import { DEFAULT_PROFILE_PIC, LIST_COMMENTS_PREVIEW } from '@techit/contract/limits';
import type { Response } from 'supertest';
import { newObjectId } from '../src/common/object-id';
import { asListed, createPost, createUser, makeAdmin, text, type TestUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

const ID = /^[0-9a-f]{24}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Well-formed, but no row has it. */
const MISSING_ID = '0123456789abcdef01234567';
const LOCAL_PIC = '/uploads/0123456789abcdef01234567.webp';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
  bob = await createUser(t);
  carol = await createUser(t);
  admin = await createUser(t);
  await makeAdmin(t, admin);
});
afterAll(() => t.close());

function authorOf(user: TestUser) {
  return { _id: user.id, userName: user.userName, pic: DEFAULT_PROFILE_PIC };
}

/** Sends a request that must fail: checks the status, the `{ error }` body, and that no row changed. */
async function expectRejected(send: () => PromiseLike<Response>, status: number, error?: string): Promise<Response> {
  const before = await snapshot(t.db);
  const response = await send();
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: error ?? expect.any(String) },
  });
  expect(await snapshot(t.db)).toEqual(before);
  return response;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `?view=compact`, or nothing for the spec's full form (see view in the contract's enums). */
function viewQuery(view?: PostView): string {
  return view ? `?view=${view}` : '';
}

function like(user: TestUser, postId: unknown, view?: PostView) {
  return t.http
    .put(`/api/like${viewQuery(view)}`)
    .set('Authorization', user.auth)
    .send({ postId });
}

function unlike(user: TestUser, postId: unknown, view?: PostView) {
  return t.http
    .put(`/api/unlike${viewQuery(view)}`)
    .set('Authorization', user.auth)
    .send({ postId });
}

function comment(user: TestUser, postId: unknown, body: unknown, view?: PostView) {
  return t.http
    .put(`/api/comment${viewQuery(view)}`)
    .set('Authorization', user.auth)
    .send({ postId, text: body });
}

/** What a viewer sees of a post's likes. */
function pick(post: Post): Pick<Post, 'likes' | 'likesCount'> {
  return { likes: post.likes, likesCount: post.likesCount };
}

async function addComment(user: TestUser, postId: string, body: string, view?: PostView): Promise<Post> {
  const response = await comment(user, postId, body, view).expect(200);
  return response.body as Post;
}

describe('GET /api/posts/:id', () => {
  it('returns the post with its comments oldest first, its author and its counts', async () => {
    const created = await createPost(t, alice, {
      title: 'Why is my build slow?',
      desc: 'It takes ten minutes.',
      pic: 'https://images.example.com/build.png',
      category: 'Doubt',
      link1: 'https://github.com/example/repo',
      link2: 'http://demo.example.com/',
    });
    await like(bob, created._id).expect(200);
    await addComment(bob, created._id, 'First!');
    await addComment(alice, created._id, 'Thanks for reading');

    const response = await t.http.get(`/api/posts/${created._id}`).expect(200);

    // The spec's Post: every liker listed, the whole conversation, whoever asks.
    expect(response.body).toEqual({
      post: {
        _id: created._id,
        title: 'Why is my build slow?',
        desc: 'It takes ten minutes.',
        descHtml: '<p>It takes ten minutes.</p>\n',
        // A single post carries its article ('' when it has none); lists never do.
        body: '',
        bodyHtml: '',
        photo: 'https://images.example.com/build.png',
        category: 'Doubt',
        link1: 'https://github.com/example/repo',
        link2: 'http://demo.example.com/',
        tags: [],
        likes: [bob.id],
        comments: [
          {
            _id: expect.stringMatching(ID),
            text: 'First!',
            textHtml: '<p>First!</p>\n',
            postedBy: authorOf(bob),
            createdAt: expect.stringMatching(ISO),
            parentId: null,
            editedAt: null,
            deleted: false,
          },
          {
            _id: expect.stringMatching(ID),
            text: 'Thanks for reading',
            textHtml: '<p>Thanks for reading</p>\n',
            postedBy: authorOf(alice),
            createdAt: expect.stringMatching(ISO),
            parentId: null,
            editedAt: null,
            deleted: false,
          },
        ],
        likesCount: 1,
        commentsCount: 2,
        postedBy: authorOf(alice),
        createdAt: created.createdAt,
        updatedAt: created.updatedAt,
        editedAt: null,
        bookmarked: false,
      },
    });
    const asAlice = await t.http.get(`/api/posts/${created._id}`).set('Authorization', alice.auth).expect(200);
    expect(asAlice.body).toEqual(response.body);
    // Compact: a visitor sees no likes, only their count; the liker sees their own like marked.
    const compact = await t.http.get(`/api/posts/${created._id}?view=compact`).expect(200);
    expect(compact.body).toEqual({ post: { ...response.body.post, likes: [], commentsNextCursor: null } });
    const asBob = await t.http.get(`/api/posts/${created._id}?view=compact`).set('Authorization', bob.auth).expect(200);
    expect(asBob.body).toEqual({ post: { ...compact.body.post, likes: [bob.id] } });
  });

  it.each(['full', 'compact'])('accepts view=%s and refuses any other view with 400', async (view) => {
    const created = await createPost(t, alice);
    await t.http.get(`/api/posts/${created._id}?view=${view}`).expect(200);
    const response = await t.http.get(`/api/posts/${created._id}?view=${view}s`).expect(400);
    expect(response.body).toEqual({ error: 'view must be one of: full, compact' });
  });

  it('needs no token', async () => {
    const created = await createPost(t, alice);
    const response = await t.http.get(`/api/posts/${created._id}`).expect(200);
    expect(response.body.post._id).toBe(created._id);
  });

  it('finds a post by its id written in upper case', async () => {
    const created = await createPost(t, alice);
    const response = await t.http.get(`/api/posts/${created._id.toUpperCase()}`).expect(200);
    expect(response.body.post._id).toBe(created._id);
  });

  it.each([
    ['an unknown id', MISSING_ID],
    ['a malformed id', 'abc'],
    ['an id one character too long', `${MISSING_ID}0`],
  ])('answers 404 for %s', async (_name, id) => {
    const response = await t.http.get(`/api/posts/${id}`).expect(404);
    expect(response.body).toEqual({ error: "This post doesn't exist" });
  });
});

describe('GET /api/posts/:id?view=compact as seen by each viewer', () => {
  let post: Post;
  let dave: TestUser;

  /** A post by alice that bob, carol and admin like, and dave does not. */
  beforeAll(async () => {
    dave = await createUser(t);
    post = await createPost(t, alice);
    for (const liker of [bob, carol, admin]) await like(liker, post._id).expect(200);
  });

  function viewAs(auth?: string) {
    const request = t.http.get(`/api/posts/${post._id}?view=compact`);
    if (auth) request.set('Authorization', auth);
    return request.expect(200);
  }

  it('shows a visitor no likes, only how many there are', async () => {
    const response = await viewAs();
    expect(response.body.post).toMatchObject({ likes: [], likesCount: 3 });
  });

  it("shows each liker their own like and no one else's", async () => {
    for (const liker of [bob, carol, admin]) {
      const response = await viewAs(liker.auth);
      expect({ viewer: liker.userName, ...pick(response.body.post as Post) }).toEqual({
        viewer: liker.userName,
        likes: [liker.id],
        likesCount: 3,
      });
    }
  });

  it('shows a logged-in user who has not liked it no likes, even its author', async () => {
    for (const viewer of [dave, alice]) {
      const response = await viewAs(viewer.auth);
      expect({ viewer: viewer.userName, ...pick(response.body.post as Post) }).toEqual({
        viewer: viewer.userName,
        likes: [],
        likesCount: 3,
      });
    }
  });

  it('treats an invalid, expired or orphaned token as a visitor instead of failing', async () => {
    const jwt = t.app.get(JwtService);
    const visitor = await viewAs();
    for (const auth of [
      `${bob.auth}x`,
      'Bearer not-a-token',
      `Bearer ${jwt.sign({ sub: bob.id }, { expiresIn: -60 })}`,
      `Bearer ${jwt.sign({ sub: MISSING_ID })}`,
    ]) {
      const response = await viewAs(auth);
      expect({ auth, body: response.body }).toEqual({ auth, body: visitor.body });
    }
  });

  it("follows the viewer's like as they unlike and like again", async () => {
    await unlike(bob, post._id).expect(200);
    expect(pick((await viewAs(bob.auth)).body.post as Post)).toEqual({ likes: [], likesCount: 2 });
    await like(bob, post._id).expect(200);
    expect(pick((await viewAs(bob.auth)).body.post as Post)).toEqual({ likes: [bob.id], likesCount: 3 });
  });

  it('carries the whole conversation, oldest first, beyond what a list shows', async () => {
    const discussed = await createPost(t, alice);
    const written = Array.from({ length: LIST_COMMENTS_PREVIEW + 2 }, (_, i) => `comment ${i}`);
    for (const [i, body] of written.entries()) await addComment(i % 2 ? carol : bob, discussed._id, body);

    const response = await t.http.get(`/api/posts/${discussed._id}`).expect(200);

    const shown = response.body.post as Post;
    expect(shown.comments.map((c) => c.text)).toEqual(written);
    expect(shown.commentsCount).toBe(written.length);
    const all = await t.http.get(`/api/posts/${discussed._id}/comments`).expect(200);
    expect(shown.comments).toEqual(all.body.comments);
  });
});

describe('GET /api/posts/:id/comments', () => {
  it('returns the comments oldest first, each with its author', async () => {
    const post = await createPost(t, alice);
    await addComment(bob, post._id, 'one');
    await addComment(carol, post._id, 'two');
    await addComment(bob, post._id, 'three');

    const response = await t.http.get(`/api/posts/${post._id}/comments`).expect(200);

    expect(response.body).toEqual({
      comments: [
        {
          _id: expect.stringMatching(ID),
          text: 'one',
          textHtml: '<p>one</p>\n',
          postedBy: authorOf(bob),
          createdAt: expect.stringMatching(ISO),
          parentId: null,
          editedAt: null,
          deleted: false,
        },
        {
          _id: expect.stringMatching(ID),
          text: 'two',
          textHtml: '<p>two</p>\n',
          postedBy: authorOf(carol),
          createdAt: expect.stringMatching(ISO),
          parentId: null,
          editedAt: null,
          deleted: false,
        },
        {
          _id: expect.stringMatching(ID),
          text: 'three',
          textHtml: '<p>three</p>\n',
          postedBy: authorOf(bob),
          createdAt: expect.stringMatching(ISO),
          parentId: null,
          editedAt: null,
          deleted: false,
        },
      ],
      nextCursor: null,
    });
    const { body } = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect(body.post.comments).toEqual(response.body.comments);
  });

  it('returns an empty list for a post nobody commented on', async () => {
    const post = await createPost(t, alice);
    const response = await t.http.get(`/api/posts/${post._id}/comments`).expect(200);
    expect(response.body).toEqual({ comments: [], nextCursor: null });
  });

  it.each([
    ['an unknown post', MISSING_ID],
    ['a malformed id', 'abc'],
  ])('answers 404 for %s', async (_name, id) => {
    const response = await t.http.get(`/api/posts/${id}/comments`).expect(404);
    expect(response.body).toEqual({ error: "This post doesn't exist" });
  });
});

describe('POST /api/createpost', () => {
  function create(body: unknown, user: TestUser | null = alice) {
    const request = t.http.post('/api/createpost');
    if (user) request.set('Authorization', user.auth);
    return request.send(body as object);
  }

  it('creates the post and answers 201 with it, storing pic as photo', async () => {
    const response = await create({
      title: 'Rust or Go?',
      desc: 'For a CLI tool.',
      pic: 'https://images.example.com/cli.png',
      category: 'Informative',
      link1: 'https://github.com/example/cli',
      link2: 'https://cli.example.com',
    }).expect(201);

    const post = response.body.post as Post;
    expect(response.body).toEqual({
      post: {
        _id: expect.stringMatching(ID),
        title: 'Rust or Go?',
        desc: 'For a CLI tool.',
        descHtml: '<p>For a CLI tool.</p>\n',
        body: '',
        bodyHtml: '',
        photo: 'https://images.example.com/cli.png',
        category: 'Informative',
        link1: 'https://github.com/example/cli',
        link2: 'https://cli.example.com',
        tags: [],
        likes: [],
        comments: [],
        likesCount: 0,
        commentsCount: 0,
        postedBy: authorOf(alice),
        createdAt: expect.stringMatching(ISO),
        updatedAt: post.createdAt,
        editedAt: null,
        bookmarked: false,
      },
    });
    const stored = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect(stored.body.post).toEqual(post);
  });

  it('leaves photo, category and links empty when they are not sent', async () => {
    const response = await create({ title: 'Bare', desc: 'Just text' }).expect(201);
    expect(response.body.post).toMatchObject({
      title: 'Bare',
      desc: 'Just text',
      photo: '',
      category: '',
      link1: '',
      link2: '',
    });
  });

  it('treats blank optional fields as not sent', async () => {
    const response = await create({
      title: 'Blanks',
      desc: 'd',
      pic: '  ',
      category: '',
      link1: ' ',
      link2: '',
    }).expect(201);
    expect(response.body.post).toMatchObject({ photo: '', category: '', link1: '', link2: '' });
  });

  it('trims the title, description, category and links', async () => {
    const response = await create({
      title: '  Spaced title  ',
      desc: '\n  Spaced description \t',
      category: ' Doubt ',
      link1: '  https://example.com/a  ',
    }).expect(201);
    expect(response.body.post).toMatchObject({
      title: 'Spaced title',
      desc: 'Spaced description',
      category: 'Doubt',
      link1: 'https://example.com/a',
    });
  });

  it('accepts a picture uploaded to this server', async () => {
    const response = await create({ title: 'Local pic', desc: 'd', pic: LOCAL_PIC }).expect(201);
    expect(response.body.post.photo).toBe(LOCAL_PIC);
  });

  it('ignores unknown fields, including ones that try to set counters, likes or the author', async () => {
    const response = await create({
      title: 'Sneaky',
      desc: 'd',
      _id: MISSING_ID,
      likes: [bob.id],
      likesCount: 99,
      commentsCount: 7,
      postedBy: bob.id,
      photo: 'https://evil.example.com/x.png',
      createdAt: '2000-01-01T00:00:00.000Z',
    }).expect(201);
    const post = response.body.post as Post;
    expect(post._id).not.toBe(MISSING_ID);
    expect(post).toMatchObject({ likes: [], likesCount: 0, commentsCount: 0, postedBy: authorOf(alice), photo: '' });
    expect(post.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it.each([
    ['a title of 80 characters', { title: text(80) }],
    ['a title of 1 character', { title: 'x' }],
    ['a title of 80 characters surrounded by spaces', { title: `  ${text(80)}  ` }],
    ['a description of 400 characters', { desc: text(400) }],
    ['category Doubt', { category: 'Doubt' }],
    ['category Informative', { category: 'Informative' }],
    ['an http link', { link1: 'http://example.com' }],
    ['an https link with path and query', { link2: 'https://example.com/a/b?c=d#e' }],
    ['a link of 2048 characters', { link1: `https://example.com/${text(2048 - 'https://example.com/'.length)}` }],
    ['an http(s) picture', { pic: 'http://images.example.com/a.jpg' }],
  ])('accepts %s', async (_name, overrides) => {
    const response = await create({ title: 'Title', desc: 'Description', ...overrides }).expect(201);
    expect(response.body.post._id).toMatch(ID);
  });

  it.each([
    ['a title of 81 characters', { title: text(81) }, 'Title must be at most 80 characters'],
    ['a blank title', { title: '   ' }, 'Title is required'],
    ['an empty title', { title: '' }, 'Title is required'],
    ['a missing title', { title: undefined }, 'Title is required'],
    ['a numeric title', { title: 5 }, 'Title must be text'],
    ['a title that is a list', { title: ['a'] }, 'Title must be text'],
    ['a description of 401 characters', { desc: text(401) }, 'Description must be at most 400 characters'],
    ['a blank description', { desc: ' \n ' }, 'Description is required'],
    ['a missing description', { desc: undefined }, 'Description is required'],
    ['a description that is an object', { desc: { text: 'x' } }, 'Description must be text'],
    ['category Other', { category: 'Other' }, undefined],
    ['category doubt in lower case', { category: 'doubt' }, undefined],
    ['a numeric category', { category: 5 }, undefined],
    ['a javascript: link', { link1: 'javascript:alert(1)' }, undefined],
    ['an ftp link', { link1: 'ftp://x' }, undefined],
    ['a data: link', { link2: 'data:text/html,<script>alert(1)</script>' }, undefined],
    ['a link that is not a URL', { link2: 'not a url' }, undefined],
    [
      'a link of 2049 characters',
      { link1: `https://example.com/${text(2049 - 'https://example.com/'.length)}` },
      undefined,
    ],
    ['a numeric link', { link1: 5 }, undefined],
    ['a javascript: picture', { pic: 'javascript:alert(1)' }, undefined],
    ['a relative picture path outside uploads', { pic: '/etc/passwd' }, undefined],
    ['an upload path that is not an id', { pic: '/uploads/../../secret.webp' }, undefined],
    ['an upload path in upper case hex', { pic: '/uploads/0123456789ABCDEF01234567.webp' }, undefined],
    ['a numeric picture', { pic: 5 }, 'pic must be text'],
  ])('rejects %s with 400 and changes nothing', async (_name, overrides, message) => {
    await expectRejected(() => create({ title: 'Title', desc: 'Description', ...overrides }), 400, message);
  });

  it('names the offending link in the error', async () => {
    const response = await expectRejected(() => create({ title: 'T', desc: 'D', link2: 'ftp://x' }), 400);
    expect(response.body.error).toMatch(/^link2 /);
  });

  it('rejects a body that is not valid JSON', async () => {
    await expectRejected(
      () =>
        t.http
          .post('/api/createpost')
          .set('Authorization', alice.auth)
          .set('Content-Type', 'application/json')
          .send('{"title": '),
      400,
    );
  });

  it.each([
    ['a list', [{ title: 'T', desc: 'D' }]],
    ['a string', 'hello'],
    ['null', null],
  ])('rejects a JSON body that is %s', async (_name, body) => {
    await expectRejected(
      () =>
        t.http
          .post('/api/createpost')
          .set('Authorization', alice.auth)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body)),
      400,
    );
  });

  it('rejects a body carrying __proto__', async () => {
    await expectRejected(
      () =>
        t.http
          .post('/api/createpost')
          .set('Authorization', alice.auth)
          .set('Content-Type', 'application/json')
          .send('{"title":"T","desc":"D","__proto__":{"isAdmin":true}}'),
      400,
    );
  });

  it('rejects a request without a token with 401 and changes nothing', async () => {
    await expectRejected(() => create({ title: 'T', desc: 'D' }, null), 401, 'Please log in to do that');
  });

  it('rejects an expired token with 401, saying the session expired', async () => {
    const expired = t.app.get(JwtService).sign({ sub: alice.id }, { expiresIn: -60 });
    await expectRejected(
      () => t.http.post('/api/createpost').set('Authorization', `Bearer ${expired}`).send({ title: 'T', desc: 'D' }),
      401,
      'Your session has expired; please log in again',
    );
  });

  it('rejects a request with a forged token with 401', async () => {
    await expectRejected(
      () => t.http.post('/api/createpost').set('Authorization', `${alice.auth}x`).send({ title: 'T', desc: 'D' }),
      401,
    );
  });
});

describe('PUT /api/editpost/:id', () => {
  function editBody(overrides: Record<string, unknown> = {}) {
    return {
      title: 'Edited title',
      category: 'Informative',
      desc: 'Edited description',
      link1: '',
      link2: '',
      pic: '',
      ...overrides,
    };
  }

  /** As the original client sends it: a JSON string with fetch's default text/plain type. */
  function edit(id: string, user: TestUser | null, body: unknown) {
    const request = t.http.put(`/api/editpost/${id}`).set('Content-Type', 'text/plain;charset=UTF-8');
    if (user) request.set('Authorization', user.auth);
    return request.send(JSON.stringify(body));
  }

  async function freshPost(): Promise<Post> {
    return createPost(t, alice, {
      title: 'Original',
      desc: 'Original description',
      pic: 'https://images.example.com/original.png',
      category: 'Doubt',
      link1: 'https://github.com/original',
      link2: 'https://demo.example.com/original',
    });
  }

  it('lets the author edit, reading a JSON body sent as text/plain, and answers the post itself', async () => {
    const post = await freshPost();
    await like(bob, post._id).expect(200);
    await addComment(bob, post._id, 'nice');
    await sleep(5);

    const response = await edit(
      post._id,
      alice,
      editBody({
        title: '  New title ',
        desc: 'New description',
        category: 'Informative',
        link1: 'https://github.com/new',
        link2: 'https://demo.example.com/new',
        pic: LOCAL_PIC,
      }),
    ).expect(200);

    const edited = response.body as Post;
    expect(edited).toEqual({
      _id: post._id,
      title: 'New title',
      desc: 'New description',
      descHtml: '<p>New description</p>\n',
      body: '',
      bodyHtml: '',
      photo: LOCAL_PIC,
      category: 'Informative',
      link1: 'https://github.com/new',
      link2: 'https://demo.example.com/new',
      tags: [],
      likes: [bob.id],
      comments: [
        {
          _id: expect.stringMatching(ID),
          text: 'nice',
          textHtml: '<p>nice</p>\n',
          postedBy: authorOf(bob),
          createdAt: expect.stringMatching(ISO),
          parentId: null,
          editedAt: null,
          deleted: false,
        },
      ],
      likesCount: 1,
      commentsCount: 1,
      postedBy: authorOf(alice),
      createdAt: post.createdAt,
      updatedAt: expect.stringMatching(ISO),
      editedAt: expect.stringMatching(ISO),
      bookmarked: false,
    });
    expect(Date.parse(edited.updatedAt)).toBeGreaterThan(Date.parse(post.updatedAt));
    const stored = await t.http.get(`/api/posts/${post._id}`).set('Authorization', alice.auth).expect(200);
    expect(stored.body.post).toEqual(edited);
    const asBob = await t.http.get(`/api/posts/${post._id}`).set('Authorization', bob.auth).expect(200);
    expect(asBob.body.post).toEqual(edited);
    // Compact: the reply is seen by alice, who has not liked her own post; bob's like is counted.
    const compact = await t.http
      .put(`/api/editpost/${post._id}?view=compact`)
      .set('Authorization', alice.auth)
      .send(editBody({ title: 'New title' }))
      .expect(200);
    expect(compact.body).toMatchObject({ likes: [], likesCount: 1, commentsCount: 1, commentsNextCursor: null });
  });

  it('also accepts a JSON body sent as application/json', async () => {
    const post = await freshPost();
    const response = await t.http
      .put(`/api/editpost/${post._id}`)
      .set('Authorization', alice.auth)
      .send(editBody({ title: 'Via JSON' }))
      .expect(200);
    expect(response.body.title).toBe('Via JSON');
  });

  it('keeps the current photo when pic is blank or missing', async () => {
    const post = await freshPost();
    const blank = await edit(post._id, alice, editBody({ pic: '' })).expect(200);
    expect(blank.body.photo).toBe('https://images.example.com/original.png');
    const { pic: _omitted, ...withoutPic } = editBody();
    const missing = await edit(post._id, alice, withoutPic).expect(200);
    expect(missing.body.photo).toBe('https://images.example.com/original.png');
  });

  it('clears a link sent empty', async () => {
    const post = await freshPost();
    const response = await edit(
      post._id,
      alice,
      editBody({ link1: '', link2: 'https://demo.example.com/original' }),
    ).expect(200);
    expect(response.body).toMatchObject({ link1: '', link2: 'https://demo.example.com/original' });
  });

  it.each([
    ['a title of 80 characters', { title: text(80) }],
    ['a description of 400 characters', { desc: text(400) }],
    ['category Doubt', { category: 'Doubt' }],
  ])('accepts %s', async (_name, overrides) => {
    const post = await freshPost();
    const response = await edit(post._id, alice, editBody(overrides)).expect(200);
    expect(response.body).toMatchObject(overrides);
  });

  it('accepts links typed without a scheme and stores them with https://', async () => {
    const post = await freshPost();
    const response = await edit(
      post._id,
      alice,
      editBody({ link1: 'example.com/code', link2: ' demo.example ' }),
    ).expect(200);
    expect(response.body).toMatchObject({ link1: 'https://example.com/code', link2: 'https://demo.example' });
  });

  it.each([
    ['a title of 81 characters', { title: text(81) }, 'Title must be at most 80 characters'],
    ['a blank title', { title: '  ' }, 'Title is required'],
    ['a missing title', { title: undefined }, 'Title is required'],
    ['a numeric title', { title: 5 }, 'Title must be text'],
    ['a description of 401 characters', { desc: text(401) }, 'Description must be at most 400 characters'],
    ['a blank description', { desc: '   ' }, 'Description is required'],
    ['a blank category', { category: '' }, 'Category is required'],
    ['a missing category', { category: undefined }, 'Category is required'],
    ['category Other', { category: 'Other' }, 'Category must be one of: Doubt, Informative'],
    ['a numeric category', { category: 5 }, 'Category must be one of: Doubt, Informative'],
    ['a javascript: link', { link1: 'javascript:alert(1)' }, 'link1 must be an http(s) URL of at most 2048 characters'],
    ['an ftp link', { link2: 'ftp://x' }, 'link2 must be an http(s) URL of at most 2048 characters'],
    ['a data: link', { link1: 'data:text/html,x' }, 'link1 must be an http(s) URL of at most 2048 characters'],
    ['a vbscript: link', { link2: 'vbscript:msgbox(1)' }, 'link2 must be an http(s) URL of at most 2048 characters'],
    ['a javascript: picture', { pic: 'javascript:alert(1)' }, undefined],
  ])('rejects %s with 400 and changes nothing', async (_name, overrides, message) => {
    const post = await freshPost();
    await expectRejected(() => edit(post._id, alice, editBody(overrides)), 400, message);
  });

  it('rejects a text/plain body that is not valid JSON', async () => {
    const post = await freshPost();
    await expectRejected(
      () =>
        t.http
          .put(`/api/editpost/${post._id}`)
          .set('Authorization', alice.auth)
          .set('Content-Type', 'text/plain;charset=UTF-8')
          .send('title=oops'),
      400,
      'The request body is not valid JSON',
    );
  });

  it("forbids editing another user's post and changes nothing", async () => {
    const post = await freshPost();
    await expectRejected(() => edit(post._id, bob, editBody()), 403, 'Only the author can edit this post');
  });

  it('forbids an admin too: only authors edit', async () => {
    const post = await freshPost();
    await expectRejected(() => edit(post._id, admin, editBody()), 403);
  });

  it('rejects a request without a token with 401', async () => {
    const post = await freshPost();
    await expectRejected(() => edit(post._id, null, editBody()), 401);
  });

  it.each([
    ['an unknown post', MISSING_ID],
    ['a malformed id', 'abc'],
  ])('answers 404 for %s', async (_name, id) => {
    await expectRejected(() => edit(id, alice, editBody()), 404, "This post doesn't exist");
  });
});

describe('DELETE /api/deletepost/:id', () => {
  function remove(id: string, user: TestUser | null, view?: PostView) {
    const request = t.http.delete(`/api/deletepost/${id}${viewQuery(view)}`);
    if (user) request.set('Authorization', user.auth);
    return request;
  }

  async function engagedPost(): Promise<Post> {
    const post = await createPost(t, alice);
    await like(bob, post._id).expect(200);
    await like(carol, post._id).expect(200);
    await addComment(bob, post._id, 'a comment');
    return (await t.http.get(`/api/posts/${post._id}`).expect(200)).body.post as Post;
  }

  async function rowsOf(postId: string) {
    const [posts, likes, comments] = await Promise.all([
      t.db.selectFrom('posts').select('id').where('id', '=', postId).execute(),
      t.db.selectFrom('likes').select('user_id').where('post_id', '=', postId).execute(),
      t.db.selectFrom('comments').select('id').where('post_id', '=', postId).execute(),
    ]);
    return { posts: posts.length, likes: likes.length, comments: comments.length };
  }

  it('lets the author delete the post, answering it as it was; its likes and comments go with it', async () => {
    const post = await engagedPost();
    expect(await rowsOf(post._id)).toEqual({ posts: 1, likes: 2, comments: 1 });

    const response = await remove(post._id, alice).expect(200);

    expect(response.body).toEqual(post);
    expect(await rowsOf(post._id)).toEqual({ posts: 0, likes: 0, comments: 0 });
    await t.http.get(`/api/posts/${post._id}`).expect(404);
  });

  it('answers the post as its deleter saw it (view=compact: their own like included)', async () => {
    const post = await engagedPost();
    await like(alice, post._id).expect(200);
    const seen = await t.http.get(`/api/posts/${post._id}?view=compact`).set('Authorization', alice.auth).expect(200);
    expect(pick(seen.body.post as Post)).toEqual({ likes: [alice.id], likesCount: 3 });

    const response = await remove(post._id, alice, 'compact').expect(200);

    expect(response.body).toEqual(seen.body.post);
  });

  it("lets an admin delete another user's post", async () => {
    const post = await engagedPost();
    const response = await remove(post._id, admin).expect(200);
    expect(response.body._id).toBe(post._id);
    expect(await rowsOf(post._id)).toEqual({ posts: 0, likes: 0, comments: 0 });
  });

  it('leaves other posts, likes and comments alone', async () => {
    const keep = await engagedPost();
    const doomed = await engagedPost();
    await remove(doomed._id, alice).expect(200);
    expect(await rowsOf(keep._id)).toEqual({ posts: 1, likes: 2, comments: 1 });
  });

  it("forbids deleting another user's post and changes nothing", async () => {
    const post = await engagedPost();
    await expectRejected(() => remove(post._id, bob), 403, 'Only the author or an admin can delete this post');
  });

  it('rejects a request without a token with 401', async () => {
    const post = await engagedPost();
    await expectRejected(() => remove(post._id, null), 401);
  });

  it('answers 404 when deleting the same post twice', async () => {
    const post = await createPost(t, alice);
    await remove(post._id, alice).expect(200);
    await expectRejected(() => remove(post._id, alice), 404, "This post doesn't exist");
  });

  it.each([
    ['an unknown post', MISSING_ID],
    ['a malformed id', 'abc'],
  ])('answers 404 for %s', async (_name, id) => {
    await expectRejected(() => remove(id, admin), 404, "This post doesn't exist");
  });
});

describe('PUT /api/like', () => {
  it("adds the caller's like and answers the post's id, the caller's like and the new count", async () => {
    const post = await createPost(t, alice);
    const response = await like(bob, post._id).expect(200);
    expect(response.body).toEqual({ _id: post._id, likes: [bob.id], likesCount: 1 });
    const seen = await t.http.get(`/api/posts/${post._id}`).set('Authorization', bob.auth).expect(200);
    expect(seen.body.post).toEqual({ ...post, likes: [bob.id], likesCount: 1 });
  });

  it('changes nothing when the same user likes twice', async () => {
    const post = await createPost(t, alice);
    const first = await like(bob, post._id).expect(200);
    const before = await snapshot(t.db);
    const second = await like(bob, post._id).expect(200);
    expect(second.body).toEqual(first.body);
    expect(second.body).toMatchObject({ likes: [bob.id], likesCount: 1 });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('answers each liker with only their own like in view=compact, counting every like', async () => {
    const post = await createPost(t, alice);
    const replies = [];
    for (const liker of [carol, alice, bob])
      replies.push(pick((await like(liker, post._id, 'compact').expect(200)).body as Post));
    expect(replies).toEqual([
      { likes: [carol.id], likesCount: 1 },
      { likes: [alice.id], likesCount: 2 },
      { likes: [bob.id], likesCount: 3 },
    ]);
    const stored = await t.db.selectFrom('likes').select('user_id').where('post_id', '=', post._id).execute();
    expect(stored.map((row) => row.user_id).sort()).toEqual([carol.id, alice.id, bob.id].sort());
  });

  it('shows the like to its author only in view=compact: others see the count go up, not who liked', async () => {
    const post = await createPost(t, alice);
    await like(bob, post._id).expect(200);
    const seenBy = async (user: TestUser) =>
      pick(
        (await t.http.get(`/api/posts/${post._id}?view=compact`).set('Authorization', user.auth).expect(200)).body
          .post as Post,
      );
    expect(await seenBy(bob)).toEqual({ likes: [bob.id], likesCount: 1 });
    expect(await seenBy(carol)).toEqual({ likes: [], likesCount: 1 });
    expect(pick((await t.http.get(`/api/posts/${post._id}?view=compact`).expect(200)).body.post as Post)).toEqual({
      likes: [],
      likesCount: 1,
    });
  });

  it('accepts the post id in upper case', async () => {
    const post = await createPost(t, alice);
    const response = await like(bob, post._id.toUpperCase()).expect(200);
    expect(response.body).toMatchObject({ _id: post._id, likes: [bob.id] });
  });

  it.each([
    ['an unknown post', MISSING_ID],
    ['a malformed post id', 'abc'],
  ])('answers 404 for %s and changes nothing', async (_name, postId) => {
    await expectRejected(() => like(bob, postId), 404, "This post doesn't exist");
  });

  it.each([
    ['a missing postId', undefined, 'postId is required'],
    ['an empty postId', '', 'postId is required'],
    ['a numeric postId', 5, 'postId must be text'],
  ])('rejects %s with 400', async (_name, postId, message) => {
    await expectRejected(() => like(bob, postId), 400, message);
  });

  it('rejects a request without a token with 401', async () => {
    const post = await createPost(t, alice);
    await expectRejected(() => t.http.put('/api/like').send({ postId: post._id }), 401);
  });
});

describe('PUT /api/unlike', () => {
  it("removes the caller's like and answers the post's id, no like and the new count", async () => {
    const post = await createPost(t, alice);
    await like(bob, post._id).expect(200);
    await like(carol, post._id).expect(200);
    const response = await unlike(bob, post._id, 'compact').expect(200);
    expect(response.body).toEqual({ _id: post._id, likes: [], likesCount: 1 });
    // carol's like stays, as she sees it.
    const asCarol = await t.http
      .get(`/api/posts/${post._id}?view=compact`)
      .set('Authorization', carol.auth)
      .expect(200);
    expect(pick(asCarol.body.post as Post)).toEqual({ likes: [carol.id], likesCount: 1 });
  });

  it('changes nothing when the caller has not liked the post', async () => {
    const post = await createPost(t, alice);
    await like(carol, post._id).expect(200);
    const before = await snapshot(t.db);
    const response = await unlike(bob, post._id).expect(200);
    expect(response.body).toEqual({ _id: post._id, likes: [carol.id], likesCount: 1 });
    expect(await snapshot(t.db)).toEqual(before);
    const compact = await unlike(bob, post._id, 'compact').expect(200);
    expect(compact.body).toEqual({ _id: post._id, likes: [], likesCount: 1 });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('changes nothing when the caller unlikes twice', async () => {
    const post = await createPost(t, alice);
    await like(bob, post._id).expect(200);
    await unlike(bob, post._id).expect(200);
    const response = await unlike(bob, post._id).expect(200);
    expect(response.body).toMatchObject({ likes: [], likesCount: 0 });
  });

  it.each([
    ['an unknown post', MISSING_ID],
    ['a malformed post id', 'abc'],
  ])('answers 404 for %s', async (_name, postId) => {
    await expectRejected(() => unlike(bob, postId), 404, "This post doesn't exist");
  });

  it('rejects a missing postId with 400', async () => {
    await expectRejected(() => unlike(bob, undefined), 400, 'postId is required');
  });

  it('rejects a request without a token with 401', async () => {
    const post = await createPost(t, alice);
    await like(bob, post._id).expect(200);
    await expectRejected(() => t.http.put('/api/unlike').send({ postId: post._id }), 401);
  });
});

describe('PUT /api/comment', () => {
  it('adds the comment and answers the post with its comments', async () => {
    const post = await createPost(t, alice);
    const response = await comment(bob, post._id, '  Great question  ').expect(200);
    expect(response.body).toEqual({
      ...post,
      comments: [
        {
          _id: expect.stringMatching(ID),
          text: 'Great question',
          textHtml: '<p>Great question</p>\n',
          postedBy: authorOf(bob),
          createdAt: expect.stringMatching(ISO),
          parentId: null,
          editedAt: null,
          deleted: false,
        },
      ],
      commentsCount: 1,
    });
  });

  it('keeps the comments oldest first and counts every comment', async () => {
    const post = await createPost(t, alice);
    await addComment(bob, post._id, 'first');
    await addComment(carol, post._id, 'second');
    const response = await comment(bob, post._id, 'third').expect(200);
    expect((response.body as Post).comments.map((c) => c.text)).toEqual(['first', 'second', 'third']);
    expect(response.body.commentsCount).toBe(3);
  });

  it('answers the whole conversation, not only the newest comments a list shows', async () => {
    const post = await createPost(t, alice);
    const written = Array.from({ length: LIST_COMMENTS_PREVIEW + 2 }, (_, i) => `comment ${i}`);
    let reply: Post = post;
    for (const body of written) reply = await addComment(bob, post._id, body);
    expect(reply.comments.map((c) => c.text)).toEqual(written);
    expect(reply.commentsCount).toBe(written.length);
  });

  it("answers the caller's own like with the post in view=compact", async () => {
    const post = await createPost(t, alice);
    await like(carol, post._id).expect(200);
    await like(bob, post._id).expect(200);
    expect(pick(await addComment(bob, post._id, 'liked it', 'compact'))).toEqual({ likes: [bob.id], likesCount: 2 });
    expect(pick(await addComment(alice, post._id, 'thanks', 'compact'))).toEqual({ likes: [], likesCount: 2 });
    expect(pick(await addComment(alice, post._id, 'and everyone'))).toEqual({
      likes: [carol.id, bob.id].sort(),
      likesCount: 2,
    });
  });

  it('accepts a comment of 1000 characters', async () => {
    const post = await createPost(t, alice);
    const response = await comment(bob, post._id, text(1000)).expect(200);
    expect(response.body.comments[0].text).toHaveLength(1000);
  });

  it.each([
    ['a comment of 1001 characters', text(1001), 'Comment must be at most 1000 characters'],
    ['a blank comment', '   ', 'Comment is required'],
    ['a missing comment', undefined, 'Comment is required'],
    ['a numeric comment', 5, 'Comment must be text'],
  ])('rejects %s with 400 and changes nothing', async (_name, body, message) => {
    const post = await createPost(t, alice);
    await expectRejected(() => comment(bob, post._id, body), 400, message);
  });

  it('rejects a missing postId with 400', async () => {
    await expectRejected(() => comment(bob, undefined, 'hi'), 400, 'postId is required');
  });

  it.each([
    ['an unknown post', MISSING_ID],
    ['a malformed post id', 'abc'],
  ])('answers 404 for %s', async (_name, postId) => {
    await expectRejected(() => comment(bob, postId, 'hi'), 404, "This post doesn't exist");
  });

  it('rejects a request without a token with 401', async () => {
    const post = await createPost(t, alice);
    await expectRejected(() => t.http.put('/api/comment').send({ postId: post._id, text: 'hi' }), 401);
  });
});

describe('DELETE /api/comment/:postId/:commentId', () => {
  function removeComment(postId: string, commentId: string, user: TestUser | null) {
    const request = t.http.delete(`/api/comment/${postId}/${commentId}`);
    if (user) request.set('Authorization', user.auth);
    return request;
  }

  /** A post by alice with a comment by bob, then one by carol. */
  async function discussedPost(): Promise<{ post: Post; bobs: string; carols: string }> {
    const post = await createPost(t, alice);
    await addComment(bob, post._id, 'by bob');
    const after = await addComment(carol, post._id, 'by carol');
    return { post: after, bobs: after.comments[0]._id, carols: after.comments[1]._id };
  }

  it("lets the comment's author delete it and answers the updated post", async () => {
    const { post, bobs } = await discussedPost();
    const response = await removeComment(post._id, bobs, bob).expect(200);
    expect(response.body).toEqual({ ...post, comments: [post.comments[1]], commentsCount: 1 });
    const rows = await t.db.selectFrom('comments').select('id').where('id', '=', bobs).execute();
    expect(rows).toEqual([]);
  });

  it('answers the whole remaining conversation, however long', async () => {
    const post = await createPost(t, alice);
    const written = Array.from({ length: LIST_COMMENTS_PREVIEW + 2 }, (_, i) => `comment ${i}`);
    let reply: Post = post;
    for (const body of written) reply = await addComment(bob, post._id, body);
    const response = await removeComment(post._id, reply.comments[0]._id, bob).expect(200);
    expect(response.body).toEqual({ ...reply, comments: reply.comments.slice(1), commentsCount: written.length - 1 });
  });

  it("lets the post's author delete someone else's comment", async () => {
    const { post, carols } = await discussedPost();
    const response = await removeComment(post._id, carols, alice).expect(200);
    expect((response.body as Post).comments.map((c) => c.text)).toEqual(['by bob']);
  });

  it('lets an admin delete any comment', async () => {
    const { post, bobs } = await discussedPost();
    const response = await removeComment(post._id, bobs, admin).expect(200);
    expect((response.body as Post).comments.map((c) => c.text)).toEqual(['by carol']);
  });

  it('forbids a user who wrote neither the comment nor the post and changes nothing', async () => {
    const { post, bobs } = await discussedPost();
    await expectRejected(
      () => removeComment(post._id, bobs, carol),
      403,
      "Only the comment's author, the post's author or an admin can delete this comment",
    );
  });

  it('rejects a request without a token with 401', async () => {
    const { post, bobs } = await discussedPost();
    await expectRejected(() => removeComment(post._id, bobs, null), 401);
  });

  it('answers 404 for an unknown comment', async () => {
    const { post } = await discussedPost();
    await expectRejected(() => removeComment(post._id, MISSING_ID, alice), 404, "This comment doesn't exist");
  });

  it('answers 404 for a malformed comment id', async () => {
    const { post } = await discussedPost();
    await expectRejected(() => removeComment(post._id, 'abc', alice), 404, "This comment doesn't exist");
  });

  it('answers 404 for a comment that belongs to another post', async () => {
    const { bobs } = await discussedPost();
    const other = await createPost(t, bob);
    await expectRejected(() => removeComment(other._id, bobs, bob), 404, "This comment doesn't exist");
  });

  it('answers 404 when the comment was already deleted', async () => {
    const { post, bobs } = await discussedPost();
    await removeComment(post._id, bobs, bob).expect(200);
    await expectRejected(() => removeComment(post._id, bobs, bob), 404, "This comment doesn't exist");
  });

  it.each([
    ['an unknown post', MISSING_ID],
    ['a malformed post id', 'abc'],
  ])('answers 404 for %s', async (_name, postId) => {
    const { bobs } = await discussedPost();
    await expectRejected(() => removeComment(postId, bobs, bob), 404, "This post doesn't exist");
  });
});

describe('GET /api/userposts/:userId', () => {
  let prolific: TestUser;
  let quiet: TestUser;
  /** prolific's 21 posts, oldest first. */
  let posts: Post[];

  beforeAll(async () => {
    prolific = await createUser(t);
    quiet = await createUser(t);
    posts = [];
    for (let i = 0; i < 21; i += 1) posts.push(await createPost(t, prolific, { title: `Prolific ${i}` }));
  });

  it("answers the user's posts newest first, 20 to a page, with a cursor for the rest", async () => {
    const response = await t.http.get(`/api/userposts/${prolific.id}`).expect(200);
    expect(response.body).toEqual({ userPosts: expect.any(Array), nextCursor: expect.any(String) });
    const page = response.body.userPosts as Post[];
    expect(page.map((p) => p._id)).toEqual(
      posts
        .slice(1)
        .reverse()
        .map((p) => p._id),
    );
    expect(page[0]).toEqual(asListed(posts[20]));

    const next = await t.http
      .get(`/api/userposts/${prolific.id}`)
      .query({ cursor: response.body.nextCursor })
      .expect(200);
    expect(next.body).toEqual({ userPosts: [asListed(posts[0])], nextCursor: null });
  });

  it('pages by page number and limit', async () => {
    const response = await t.http.get(`/api/userposts/${prolific.id}`).query({ page: 2, limit: 5 }).expect(200);
    expect((response.body.userPosts as Post[]).map((p) => p.title)).toEqual([
      'Prolific 15',
      'Prolific 14',
      'Prolific 13',
      'Prolific 12',
      'Prolific 11',
    ]);
  });

  it("shows only that user's posts", async () => {
    await createPost(t, quiet, { title: 'Quiet one' });
    const response = await t.http.get(`/api/userposts/${quiet.id}`).expect(200);
    expect(response.body).toEqual({
      userPosts: [expect.objectContaining({ title: 'Quiet one', postedBy: authorOf(quiet) })],
      nextCursor: null,
    });
  });

  it('answers an empty list for a user without posts', async () => {
    const response = await t.http.get(`/api/userposts/${admin.id}`).expect(200);
    expect(response.body).toEqual({ userPosts: [], nextCursor: null });
  });

  it.each([
    ['limit 51', { limit: 51 }],
    ['limit 0', { limit: 0 }],
    ['page 0', { page: 0 }],
    ['an invalid cursor', { cursor: 'not-a-cursor' }],
  ])('rejects %s with 400', async (_name, query) => {
    const response = await t.http.get(`/api/userposts/${prolific.id}`).query(query).expect(400);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['an unknown user', MISSING_ID],
    ['a malformed user id', 'abc'],
  ])('answers 404 for %s', async (_name, userId) => {
    const response = await t.http.get(`/api/userposts/${userId}`).expect(404);
    expect(response.body).toEqual({ error: "This user doesn't exist" });
  });
});

describe('GET /api/top-posts', () => {
  // Its own app: the ranking is over every post, so no other test's posts may compete.
  let top: TestApp;
  let users: TestUser[];
  let p: Post[];

  async function topIds(): Promise<string[]> {
    const response = await top.http.get('/api/top-posts').expect(200);
    return (response.body.posts as { _id: string }[]).map((post) => post._id);
  }

  async function likeOn(app: TestApp, user: TestUser, postId: string) {
    await app.http.put('/api/like').set('Authorization', user.auth).send({ postId }).expect(200);
  }

  async function commentOn(app: TestApp, user: TestUser, postId: string) {
    await app.http.put('/api/comment').set('Authorization', user.auth).send({ postId, text: 'hi' }).expect(200);
  }

  beforeAll(async () => {
    top = await startTestApp();
    users = [];
    for (let i = 0; i < 4; i += 1) users.push(await createUser(top));
  });
  afterAll(() => top.close());

  it('answers an empty list when there are no posts', async () => {
    const response = await top.http.get('/api/top-posts').expect(200);
    expect(response.body).toEqual({ posts: [] });
  });

  it('ranks by likes plus distinct commenters, ties newest first, at most 5', async () => {
    const [u0, u1, u2, u3] = users as [TestUser, TestUser, TestUser, TestUser];
    p = [];
    for (let i = 0; i < 7; i += 1) p.push(await createPost(top, u0, { title: `Top ${i}` }));
    // Scores: p0 3 (likes), p1 1 (one user commenting three times), p2 2 (likes),
    // p3 2 (two commenters), p4 0, p5 2 (a like and a comment by someone else), p6 1 (a like).
    for (const user of [u1, u2, u3]) await likeOn(top, user, p[0]._id);
    for (let i = 0; i < 3; i += 1) await commentOn(top, u1, p[1]._id);
    for (const user of [u1, u2]) await likeOn(top, user, p[2]._id);
    for (const user of [u1, u2]) await commentOn(top, user, p[3]._id);
    await likeOn(top, u1, p[5]._id);
    await commentOn(top, u2, p[5]._id);
    await likeOn(top, u1, p[6]._id);

    const response = await top.http.get('/api/top-posts').expect(200);

    expect(response.body).toEqual({
      posts: [
        { _id: p[0]._id, title: 'Top 0', postedBy: authorOf(u0), likesCount: 3, commentsCount: 0 },
        { _id: p[5]._id, title: 'Top 5', postedBy: authorOf(u0), likesCount: 1, commentsCount: 1 },
        { _id: p[3]._id, title: 'Top 3', postedBy: authorOf(u0), likesCount: 0, commentsCount: 2 },
        { _id: p[2]._id, title: 'Top 2', postedBy: authorOf(u0), likesCount: 2, commentsCount: 0 },
        { _id: p[6]._id, title: 'Top 6', postedBy: authorOf(u0), likesCount: 1, commentsCount: 0 },
      ],
    });
  });

  it('moves a post up when it gains a like, and down when a commenter is removed', async () => {
    const [, u1, u2, u3] = users as [TestUser, TestUser, TestUser, TestUser];
    // p1 reaches 2 (like + one distinct commenter) and, older than p5, p3 and p2, lands after them.
    await likeOn(top, u3, p[1]._id);
    expect(await topIds()).toEqual([p[0]._id, p[5]._id, p[3]._id, p[2]._id, p[1]._id]);

    // Removing u2's only comment on p3 leaves it one commenter: score 1, out of the top 5.
    const { body } = await top.http.get(`/api/posts/${p[3]._id}/comments`).expect(200);
    const u2Comment = (body.comments as { _id: string; postedBy: { _id: string } }[]).find(
      (c) => c.postedBy._id === u2.id,
    )!;
    await top.http.delete(`/api/comment/${p[3]._id}/${u2Comment._id}`).set('Authorization', u2.auth).expect(200);
    expect(await topIds()).toEqual([p[0]._id, p[5]._id, p[2]._id, p[1]._id, p[6]._id]);

    // A second like by u1 changes nothing.
    await likeOn(top, u1, p[6]._id);
    expect(await topIds()).toEqual([p[0]._id, p[5]._id, p[2]._id, p[1]._id, p[6]._id]);
  });

  it('drops a deleted post from the ranking', async () => {
    const [u0] = users as [TestUser];
    await top.http.delete(`/api/deletepost/${p[0]._id}`).set('Authorization', u0.auth).expect(200);
    expect(await topIds()).toEqual([p[5]._id, p[2]._id, p[1]._id, p[6]._id, p[3]._id]);
  });

  it('needs no token', async () => {
    const response = await top.http.get('/api/top-posts').set('Authorization', 'Bearer not-a-token').expect(200);
    expect(response.body.posts).toHaveLength(5);
  });
});

describe('a post with 10,000 likes, in view=compact', () => {
  // Its own app: 10,000 extra rows would slow every snapshot() of the suites above.
  const BULK_LIKERS = 10_000;
  let big: TestApp;
  let author: TestUser;
  let fan: TestUser;
  let viral: Post;
  let quiet: Post;
  let bulkLikerIds: string[];

  /**
   * Adds `count` users who like the post straight into the tables (10,000 sign-ups through argon2
   * would take minutes), keeping likes_count in step the way the like route does.
   */
  async function addBulkLikers(app: TestApp, postId: string, count: number): Promise<string[]> {
    const start = Date.now() - count * 1000;
    const users = Array.from({ length: count }, (_, i) => {
      const at = new Date(start + i * 1000).toISOString();
      const userName = `fan${i}_${process.pid}`;
      const email = `${userName}@example.com`;
      return {
        id: newObjectId(),
        user_name: userName,
        email,
        email_key: email,
        password_hash: 'never-signs-in',
        pic: DEFAULT_PROFILE_PIC,
        bio: '',
        position: '',
        theme: 'light',
        role: 'user',
        created_at: at,
        updated_at: at,
        token_version: 0,
      };
    });
    for (let i = 0; i < count; i += 500)
      await app.db
        .insertInto('users')
        .values(users.slice(i, i + 500))
        .execute();
    const likes = users.map((user) => ({ post_id: postId, user_id: user.id, created_at: user.created_at }));
    for (let i = 0; i < count; i += 2000)
      await app.db
        .insertInto('likes')
        .values(likes.slice(i, i + 2000))
        .execute();
    await app.db
      .updateTable('posts')
      .set((eb) => ({ likes_count: eb('likes_count', '+', count) }))
      .where('id', '=', postId)
      .execute();
    return users.map((user) => user.id);
  }

  function get(postId: string, auth?: string) {
    const request = big.http.get(`/api/posts/${postId}?view=compact`);
    if (auth) request.set('Authorization', auth);
    return request.expect(200);
  }

  beforeAll(async () => {
    big = await startTestApp();
    author = await createUser(big);
    fan = await createUser(big);
    // Same lengths of text, so the two replies differ only by what the likes add.
    viral = await createPost(big, author, { title: 'Viral', desc: 'Short text' });
    quiet = await createPost(big, author, { title: 'Quiet', desc: 'Short text' });
    bulkLikerIds = await addBulkLikers(big, viral._id, BULK_LIKERS);
    await big.http.put('/api/like').set('Authorization', fan.auth).send({ postId: viral._id }).expect(200);
  });
  afterAll(() => big.close());

  it('counts every like, as the likes table does', async () => {
    const stored = await big.db.selectFrom('likes').select('user_id').where('post_id', '=', viral._id).execute();
    const response = await get(viral._id);
    expect({ likesCount: response.body.post.likesCount }).toEqual({ likesCount: stored.length });
    expect(stored).toHaveLength(BULK_LIKERS + 1);
  });

  it('answers GET /api/posts/:id in under 2 KB: no bigger than an unliked post but for the count', async () => {
    const viralReply = await get(viral._id);
    const quietReply = await get(quiet._id);

    expect(viralReply.body.post).toMatchObject({ likes: [], likesCount: BULK_LIKERS + 1 });
    expect(quietReply.body.post).toMatchObject({ likes: [], likesCount: 0 });
    const bytes = Buffer.byteLength(viralReply.text);
    expect(bytes).toBeLessThan(2048);
    expect(bytes - Buffer.byteLength(quietReply.text)).toBe(String(BULK_LIKERS + 1).length - '0'.length);
  });

  it('still shows each liker among the 10,000 their own like, and a non-liker none', async () => {
    const jwt = big.app.get(JwtService);
    for (const likerId of [bulkLikerIds[0], bulkLikerIds[BULK_LIKERS / 2], bulkLikerIds[BULK_LIKERS - 1]]) {
      const response = await get(viral._id, `Bearer ${jwt.sign({ sub: likerId })}`);
      expect(pick(response.body.post as Post)).toEqual({ likes: [likerId], likesCount: BULK_LIKERS + 1 });
    }
    expect(pick((await get(viral._id, fan.auth)).body.post as Post)).toEqual({
      likes: [fan.id],
      likesCount: BULK_LIKERS + 1,
    });
    expect(pick((await get(viral._id, author.auth)).body.post as Post)).toEqual({
      likes: [],
      likesCount: BULK_LIKERS + 1,
    });
  });

  it('keeps the like reply and the feed page holding the post small too', async () => {
    const likeReply = await big.http
      .put('/api/like?view=compact')
      .set('Authorization', fan.auth)
      .send({ postId: viral._id })
      .expect(200);
    expect(pick(likeReply.body as Post)).toEqual({ likes: [fan.id], likesCount: BULK_LIKERS + 1 });
    expect(Buffer.byteLength(likeReply.text)).toBeLessThan(2048);

    const feed = await big.http.get('/api/posts?view=compact').set('Authorization', fan.auth).expect(200);
    const viralInFeed = (feed.body.posts as Post[]).find((post) => post._id === viral._id);
    expect(viralInFeed && pick(viralInFeed)).toEqual({ likes: [fan.id], likesCount: BULK_LIKERS + 1 });
    expect(Buffer.byteLength(feed.text)).toBeLessThan(4096);
  });

  it('lists all 10,001 likers in the full view (the default), as likesCount counts them', async () => {
    const response = await big.http.get(`/api/posts/${viral._id}`).expect(200);
    const likes = (response.body.post as Post).likes;
    expect(likes).toHaveLength(BULK_LIKERS + 1);
    expect(new Set(likes)).toEqual(new Set([...bulkLikerIds, fan.id]));
  });
});
