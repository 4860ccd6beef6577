import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/** Raw HTTP through Fastify's injector: supertest would decompress bodies before we could look. */
function inject(t: TestApp, url: string, headers: Record<string, string> = {}, method: 'GET' | 'PUT' = 'GET') {
  return t.app.getHttpAdapter().getInstance().inject({ method, url, headers });
}

describe('ETag and 304 on API reads', () => {
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;
  let postId: string;

  beforeAll(async () => {
    t = await startTestApp();
    author = await createUser(t);
    reader = await createUser(t);
    postId = (await createPost(t, author))._id;
  });

  afterAll(() => t.close());

  it('tags a feed with a weak ETag that browsers must revalidate, varying by the viewer', async () => {
    const reply = await inject(t, '/api/posts');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(String(reply.headers.vary)).toMatch(/Authorization/);
  });

  it('answers 304 with no body when the client already has this version', async () => {
    const first = await inject(t, `/api/posts/${postId}`);
    const again = await inject(t, `/api/posts/${postId}`, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it('matches the tag inside a list, with or without the weak prefix, and *', async () => {
    const etag = String((await inject(t, `/api/posts/${postId}`)).headers.etag);
    const strong = etag.replace(/^W\//, '');
    for (const header of [`"nope", ${etag}`, strong, '*']) {
      expect((await inject(t, `/api/posts/${postId}`, { 'if-none-match': header })).statusCode).toBe(304);
    }
    expect((await inject(t, `/api/posts/${postId}`, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
  });

  it('answers in full once the post changes (a like moves the count)', async () => {
    const before = await inject(t, `/api/posts/${postId}`);
    await t.http.put('/api/like').set('Authorization', reader.auth).send({ postId }).expect(200);
    const after = await inject(t, `/api/posts/${postId}`, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(JSON.parse(after.body).post.likesCount).toBe(1);
  });

  it('gives the liker and a visitor different tags for the same post in view=compact', async () => {
    const visitor = await inject(t, `/api/posts/${postId}?view=compact`);
    const liker = await inject(t, `/api/posts/${postId}?view=compact`, { authorization: reader.auth });
    expect(JSON.parse(liker.body).post.likes).toEqual([reader.id]);
    expect(liker.headers.etag).not.toBe(visitor.headers.etag);
    const crossed = await inject(t, `/api/posts/${postId}?view=compact`, {
      authorization: reader.auth,
      'if-none-match': String(visitor.headers.etag),
    });
    expect(crossed.statusCode).toBe(200);
  });

  it('gives the full and the compact view different tags, and answers one in full to the tag of the other', async () => {
    const full = await inject(t, `/api/posts/${postId}`);
    const compact = await inject(t, `/api/posts/${postId}?view=compact`);
    expect(JSON.parse(full.body).post.likes).toEqual([reader.id]);
    expect(JSON.parse(compact.body).post.likes).toEqual([]);
    expect(compact.headers.etag).not.toBe(full.headers.etag);
    const crossed = await inject(t, `/api/posts/${postId}?view=compact`, {
      'if-none-match': String(full.headers.etag),
    });
    expect(crossed.statusCode).toBe(200);
    const same = await inject(t, `/api/posts/${postId}?view=compact`, {
      'if-none-match': String(compact.headers.etag),
    });
    expect(same.statusCode).toBe(304);
  });

  it('never tags an error or a write', async () => {
    const missing = await inject(t, '/api/posts/000000000000000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    const write = await t.app
      .getHttpAdapter()
      .getInstance()
      .inject({
        method: 'PUT',
        url: '/api/like',
        headers: { authorization: reader.auth, 'content-type': 'application/json', 'if-none-match': '*' },
        payload: JSON.stringify({ postId }),
      });
    expect(write.statusCode).toBe(200);
    expect(write.headers.etag).toBeUndefined();
  });
});

describe('compression', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    const author = await createUser(t);
    for (let i = 0; i < 6; i += 1)
      await createPost(t, author, { desc: `A description long enough to matter ${i} `.repeat(8) });
  });

  afterAll(() => t.close());

  it('sends JSON gzip-compressed to a client that accepts gzip, and the bytes decode to the same reply', async () => {
    const plain = await inject(t, '/api/posts?limit=6');
    const gzipped = await inject(t, '/api/posts?limit=6', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(String(gzipped.headers.vary)).toMatch(/Accept-Encoding/i);
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString('utf8'))).toEqual(JSON.parse(plain.body));
  });

  it('prefers brotli when the client offers it', async () => {
    const reply = await inject(t, '/api/posts?limit=6', { 'accept-encoding': 'gzip, deflate, br' });
    expect(reply.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(reply.rawPayload).toString('utf8')).posts).toHaveLength(6);
  });

  it('leaves small replies and clients that ask for nothing uncompressed', async () => {
    const small = await inject(t, '/api/health', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    const identity = await inject(t, '/api/posts?limit=6');
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('keeps 304 working on compressed replies', async () => {
    const first = await inject(t, '/api/posts?limit=6', { 'accept-encoding': 'gzip' });
    const again = await inject(t, '/api/posts?limit=6', {
      'accept-encoding': 'gzip',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });
});
