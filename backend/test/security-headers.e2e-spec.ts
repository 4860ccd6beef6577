import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { createUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/** A Content-Security-Policy header as directive → sources. */
function policyOf(response: Response): Record<string, string[]> {
  const header = response.headers['content-security-policy'] as string | undefined;
  if (!header) throw new Error(`${response.status} reply has no Content-Security-Policy`);
  return Object.fromEntries(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** What every reply of the app and the API must carry (issue 5, Headers). */
function expectStrictHeaders(response: Response, imageSources = ["'self'", 'data:', 'blob:']): void {
  const policy = policyOf(response);
  expect(policy['default-src']).toEqual(["'self'"]);
  // No 'unsafe-inline', no 'unsafe-eval', no nonce or hash: only script files of this origin run.
  expect(policy['script-src']).toEqual(["'self'"]);
  expect(policy['img-src']).toEqual(imageSources);
  expect(policy['object-src']).toEqual(["'none'"]);
  expect(policy['base-uri']).toEqual(["'self'"]);
  expect(policy['form-action']).toEqual(["'self'"]);
  expect(policy['frame-ancestors']).toEqual(["'none'"]);
  expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['strict-transport-security']).toBeUndefined();
}

/** A stand-in for the built web app: index.html and one hashed asset. */
function fakeWebBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'techit-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>TechIt</title><script src="/assets/app-1.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'app-1.js'), 'document.title = "TechIt";');
  return dir;
}

describe('Security headers', () => {
  let t: TestApp;
  let web: string;
  let statements = 0;
  beforeAll(async () => {
    web = fakeWebBuild();
    // The read cache on: a reply served from memory must carry the headers too.
    t = await startTestApp({ WEB_DIST_DIR: web, READ_CACHE_TTL_MS: '60000' }, () => (statements += 1));
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it.each([
    ['the web app at /', '/', 200],
    ['a client-side route (index.html by the SPA fallback)', '/search', 200],
    ['a server-rendered page of a user nobody is (the not-found screen)', '/profile/0123456789abcdef01234567', 404],
    ['a server-rendered page', '/notices', 200],
    ['a hashed asset of the web app', '/assets/app-1.js', 200],
    ['an API read', '/api/posts?feed=for-you&page=1&limit=4', 200],
    ['the health check', '/api/health', 200],
    ['an unknown API route', '/api/no-such-route', 404],
    ['a refused query', '/api/posts?feed=for-you&limit=-1', 400],
    ['the API documentation, which needs no exception to the policy', '/api/docs', 200],
  ])('puts the strict policy on %s', async (_label, path, status) => {
    const response = await t.http.get(path);
    expect(response.status).toBe(status);
    expectStrictHeaders(response);
  });

  it('puts it on a JSON body refused as too large (413) and a sign-in refused (401)', async () => {
    const tooLarge = await t.http
      .post('/api/signin')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ userName: 'x'.repeat(200 * 1024), password: 'y' }));
    expect(tooLarge.status).toBe(413);
    expectStrictHeaders(tooLarge);
    const refused = await t.http.post('/api/signin').send({ userName: 'nobody_here', password: 'wrong password' });
    expect(refused.status).toBe(401);
    expectStrictHeaders(refused);
  });

  it('puts it on an authenticated write', async () => {
    const user = await createUser(t);
    const created = await t.http
      .post('/api/createpost')
      .set('Authorization', user.auth)
      .send({ title: 'Headers', desc: 'On every reply' });
    expect(created.status).toBe(201);
    expectStrictHeaders(created);
  });

  it('keeps the headers on a visitor’s read answered from the read cache', async () => {
    const path = '/api/top-posts';
    const first = await t.http.get(path).expect(200);
    statements = 0;
    const second = await t.http.get(path).expect(200);
    // From memory: the same reply, without a single SQL statement.
    expect(statements).toBe(0);
    expect(second.headers.etag).toBe(first.headers.etag);
    expectStrictHeaders(second);
  });

  it('serves index.html with the policy and no inline script in it', async () => {
    const page = await t.http.get('/').expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});

describe('Strict-Transport-Security', () => {
  describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ TRUST_PROXY: 'loopback' });
    });
    afterAll(() => t.close());

    it('is sent when the proxy says the request came over TLS (X-Forwarded-Proto: https)', async () => {
      const response = await t.http.get('/api/health').set('X-Forwarded-Proto', 'https').expect(200);
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    });

    it('is not sent for a request that came over plain HTTP', async () => {
      const plain = await t.http.get('/api/health').expect(200);
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      const said = await t.http.get('/api/health').set('X-Forwarded-Proto', 'http').expect(200);
      expect(said.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('with no trusted proxy (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('is not sent when any client claims X-Forwarded-Proto: https over plain HTTP', async () => {
      const response = await t.http.get('/api/health').set('X-Forwarded-Proto', 'https').expect(200);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });
  });
});

describe('Content-Security-Policy with Cloudinary configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CLOUDINARY_URL: 'cloudinary://123456:secret@demo-cloud' });
  });
  afterAll(() => t.close());

  it('allows images from Cloudinary’s host, and no other', async () => {
    expectStrictHeaders(await t.http.get('/api/health'), ["'self'", 'data:', 'blob:', 'https://res.cloudinary.com']);
  });
});

describe('GET /uploads/*', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves an uploaded picture only as the WebP we re-encoded, with nosniff and a sandboxing policy', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
    const { body } = await t.http
      .post('/api/upload')
      .attach('file', png, { filename: 'x.html', contentType: 'text/html' })
      .expect(201);
    const served = await t.http.get(body.url as string).expect(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const policy = policyOf(served);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy.sandbox).toEqual([]);
  });

  it('never serves a file there that is not one of our images, whatever it is called', async () => {
    const uploads = join(t.config.dataDir, 'uploads');
    const id = '0123456789abcdef01234567';
    const planted: Record<string, string> = {
      'evil.html': '<script>alert(document.cookie)</script>',
      'evil.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      [`${id}.svg`]: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      [`${id}.html`]: '<script>alert(1)</script>',
      [`${id}.webp.html`]: '<script>alert(1)</script>',
      'notes.txt': 'plain text',
    };
    for (const [name, content] of Object.entries(planted)) writeFileSync(join(uploads, name), content);
    for (const name of Object.keys(planted)) {
      const response = await t.http.get(`/uploads/${name}`);
      expect({ name, status: response.status }).toEqual({ name, status: 404 });
      expect(response.headers['content-type']).not.toMatch(/html|svg/);
      expect(response.text).not.toContain('<script>');
    }
  });

  it('serves the default avatar as an SVG image that cannot run script if opened as a page', async () => {
    const avatar = await t.http.get('/uploads/default-avatar.svg').expect(200);
    expect(avatar.headers['content-type']).toBe('image/svg+xml');
    expect(avatar.headers['x-content-type-options']).toBe('nosniff');
    const policy = policyOf(avatar);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['script-src']).toBeUndefined();
    expect(policy.sandbox).toEqual([]);
  });
});
