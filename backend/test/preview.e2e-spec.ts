import { LIMITS } from '@techit/contract/limits';
import { render } from '../src/markdown/markdown-renderer';
import { createUser, type TestUser, text } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

describe('POST /api/preview', () => {
  let t: TestApp;
  let writer: TestUser;
  let mentioned: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    writer = await createUser(t);
    mentioned = await createUser(t);
  });
  afterAll(() => t.close());

  const preview = (body: unknown, auth: string | null = writer.auth) => {
    const call = t.http.post('/api/preview');
    if (auth) call.set('Authorization', auth);
    return call.send(body as object);
  };

  it('answers 401 without a token', async () => {
    const response = await preview({ markdown: 'hi', kind: 'post' }, null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['an unknown kind', { markdown: 'hi', kind: 'essay' }, 'kind must be one of: post, comment, notice'],
    ['no kind', { markdown: 'hi' }, 'kind is required'],
    ['no markdown', { kind: 'post' }, 'markdown is required'],
    ['markdown that is not text', { markdown: 42, kind: 'post' }, 'markdown must be text'],
    [
      'a post over 40,000 characters',
      { markdown: text(LIMITS.postBodyMax + 1), kind: 'post' },
      'markdown must be at most 40000 characters',
    ],
    [
      'a comment over its limit',
      { markdown: text(LIMITS.commentMax + 1), kind: 'comment' },
      `markdown must be at most ${LIMITS.commentMax} characters`,
    ],
    [
      'a notice over its limit',
      { markdown: text(LIMITS.noticeDescMax + 1), kind: 'notice' },
      `markdown must be at most ${LIMITS.noticeDescMax} characters`,
    ],
  ])('answers 400 for %s, changing nothing', async (_name, body, error) => {
    await expectDatabaseUnchanged(t.db, async () => {
      const response = await preview(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error });
    });
  });

  it('takes each kind at exactly its limit', async () => {
    for (const [kind, max] of [
      ['post', LIMITS.postBodyMax],
      ['comment', LIMITS.commentMax],
      ['notice', LIMITS.noticeDescMax],
    ] as const) {
      const response = await preview({ markdown: text(max), kind });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ html: `<p>${text(max)}</p>\n` });
    }
  });

  it('links a mention of an existing user (any letter case) and leaves an unknown name as text', async () => {
    const response = await preview({
      markdown: `thanks @${mentioned.userName.toUpperCase()} and @nobody_by_this_name`,
      kind: 'comment',
    });
    expect(response.status).toBe(200);
    expect(response.body.html).toBe(
      `<p>thanks <a href="/profile/${mentioned.id}" class="mention">@${mentioned.userName.toUpperCase()}</a> and @nobody_by_this_name</p>\n`,
    );
  });

  it('answers exactly what the renderer renders on save', async () => {
    const markdown = [
      '# Title',
      `Hello @${mentioned.userName}, see [docs](https://example.com) and <script>alert(1)</script>`,
      '```ts\nconst a: number = 1;\n```',
      '![pic](https://elsewhere.example/p.png) [bad](javascript:alert(1))',
    ].join('\n\n');
    const response = await preview({ markdown, kind: 'post' });
    const expected = await render(markdown, 'post', {
      resolveMentions: () => Promise.resolve(new Map([[mentioned.userName.toLowerCase(), mentioned.id]])),
      isOwnImage: () => false,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ html: expected });
    expect(expected).toContain('<span class="hljs-keyword">const</span>');
    expect(expected).toContain('&lt;script&gt;');
  });

  it('keeps an image this server stored and links any other', async () => {
    const own = '/uploads/0123456789abcdef01234567-640x480.webp';
    const response = await preview({ markdown: `![a](${own}) ![b](https://elsewhere.example/b.png)`, kind: 'post' });
    expect(response.body.html).toBe(
      `<p><img src="${own}" alt="a" loading="lazy"> <a href="https://elsewhere.example/b.png" rel="ugc nofollow noopener noreferrer">b</a></p>\n`,
    );
  });
});

describe('POST /api/preview rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMITS: 'on', RATE_LIMIT_PREVIEW: '2/1m', RATE_LIMIT_CONTENT: '1/1m' });
  });
  afterAll(() => t.close());

  it('counts previews per user under their own limit, not the publishing one', async () => {
    const user = await createUser(t);
    const statuses: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await t.http
        .post('/api/preview')
        .set('Authorization', user.auth)
        .send({ markdown: 'x', kind: 'comment' });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
