import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

/**
 * JSON bodies are capped at 100 KB (app-factory.ts), those of the routes that take a post's
 * article at 256 KB (json-body-parser.ts); uploads at UPLOAD_MAX_BYTES (uploads.e2e-spec.ts).
 */
const LIMIT = 100 * 1024;
const ARTICLE_LIMIT = 256 * 1024;

/** A JSON body of exactly `bytes` bytes: a sign-up whose userName fills the rest. */
function bodyOfSize(bytes: number): string {
  const shell = JSON.stringify({ userName: '', email: 'big@example.com', password: 'correct horse battery' });
  return JSON.stringify({
    userName: 'x'.repeat(bytes - shell.length),
    email: 'big@example.com',
    password: 'correct horse battery',
  });
}

/** Sends `body` in chunks with no Content-Length (Transfer-Encoding: chunked). */
function postChunked(port: number, path: string, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'Content-Type': 'application/json' } },
      (res) => {
        answered = true;
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    // The server may answer and close before the last chunks are written: only an error before any reply counts.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    for (let at = 0; at < body.length; at += 16 * 1024) req.write(body.slice(at, at + 16 * 1024));
    req.end();
  });
}

describe('JSON body limit (100 KB)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => t.close());

  it('answers 413 with { error } to a body one byte over the limit, and changes nothing', async () => {
    const body = bodyOfSize(LIMIT + 1);
    expect(Buffer.byteLength(body)).toBe(LIMIT + 1);
    await expectDatabaseUnchanged(t.db, async () => {
      const response = await t.http.post('/api/signup').set('Content-Type', 'application/json').send(body);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ error: 'Request body is too large' });
    });
  });

  it('reads a body of exactly the limit (then refused by validation, not by size)', async () => {
    const body = bodyOfSize(LIMIT);
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const response = await t.http.post('/api/signup').set('Content-Type', 'application/json').send(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/userName/i);
  });

  it('answers 413 to an oversized text/plain body (parsed as JSON too) and to one on an authenticated route', async () => {
    const user = await createUser(t);
    await expectDatabaseUnchanged(t.db, async () => {
      const plain = await t.http
        .post('/api/signup')
        .set('Content-Type', 'text/plain')
        .send(bodyOfSize(LIMIT * 3));
      expect(plain.status).toBe(413);
      expect(plain.body).toEqual({ error: expect.any(String) });
      const post = await t.http
        .post('/api/createpost')
        .set('Authorization', user.auth)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ title: 'Big', body: 'y'.repeat(ARTICLE_LIMIT) }));
      expect(post.status).toBe(413);
      expect(post.body).toEqual({ error: expect.any(String) });
    });
  });

  it('answers 413 to a chunked body with no Content-Length once it passes the limit', async () => {
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    await expectDatabaseUnchanged(t.db, async () => {
      const reply = await postChunked(port, '/api/signup', bodyOfSize(LIMIT * 5));
      expect(reply).toEqual({ status: 413, json: { error: 'Request body is too large' } });
    });
  });

  it('lets the routes that take an article read up to 256 KB, and only those', async () => {
    const user = await createUser(t);
    const big = { title: 'Big', desc: 'Summary', body: 'y'.repeat(LIMIT) };
    await expectDatabaseUnchanged(t.db, async () => {
      // Past 100 KB: read, then refused by the body's own limit (40,000 characters).
      for (const [method, path] of [
        ['post', '/api/createpost'],
        ['post', '/api/drafts'],
        ['post', '/api/preview'],
      ] as const) {
        const response = await t.http[method](path)
          .set('Authorization', user.auth)
          .send(path === '/api/preview' ? { markdown: big.body, kind: 'post' } : { kind: 'post', ...big });
        expect({ path, status: response.status }).toEqual({ path, status: 400 });
      }
      const comment = await t.http
        .put('/api/comment')
        .set('Authorization', user.auth)
        .send({ postId: '0123456789abcdef01234567', text: big.body });
      expect(comment.status).toBe(413);
    });
  });
});
