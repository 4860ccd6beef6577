import { createHmac, generateKeyPairSync } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import type { Post } from '@techit/contract/api-types';
import { sign } from 'jsonwebtoken';
import type { Response } from 'supertest';
import { createPost, createUser, type TestUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';

/**
 * What a bearer token must be before the server acts on it, and POST /api/logout-all. The plainer
 * forgeries (another secret, alg "none", HS512, an altered payload, expired, unknown or removed
 * user, a subject that is not text) are proven in auth.e2e-spec.ts ("bearer tokens"); this file
 * covers algorithm confusion, header shapes, token lifetime and revocation.
 */

const DAY = 24 * 60 * 60;
const now = () => Math.floor(Date.now() / 1000);

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A token put together by hand: any header, any payload, an HMAC-SHA256 signature with `key`. */
function handSigned(header: object, payload: object, key: string | Buffer): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`;
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

let t: TestApp;
let secret: string;
/** SQL statements the app ran while `recording` was set. */
let statements: string[] = [];
let recording = false;

beforeAll(async () => {
  t = await startTestApp({}, (sql) => {
    if (recording) statements.push(sql);
  });
  if (!t.config.jwtSecret) throw new Error('the test app always sets JWT_SECRET');
  secret = t.config.jwtSecret;
});
afterAll(() => t.close());

/** A write behind JwtAuthGuard: if the token were accepted, the bio would change. */
function writeWith(authorization: string) {
  return t.http.put('/api/bio').set('Authorization', authorization).send({ bio: 'written with this token' });
}

/** Checks a 401 with `{ error }`, and that no row of any table changed. */
async function expectRefused(send: () => PromiseLike<Response>): Promise<Response> {
  const before = await snapshot(t.db);
  const response = await send();
  expect({ status: response.status, body: response.body }).toEqual({
    status: 401,
    body: { error: expect.any(String) },
  });
  expect(await snapshot(t.db)).toBe(before);
  return response;
}

async function signIn(user: TestUser): Promise<string> {
  const response = await t.http.post('/api/signin').send({ userName: user.userName, password: user.password });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

async function tokenVersionOf(user: TestUser): Promise<number> {
  const row = await t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return Number(row.token_version);
}

describe('the tokens the server issues', () => {
  it('carry the account’s token version (0 for a new account) and expire after 30 days', async () => {
    const user = await createUser(t);
    const payload = payloadOf(user.token);
    expect(payload).toEqual({ sub: user.id, ver: 0, iat: expect.any(Number), exp: expect.any(Number) });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(30 * DAY);
  });
});

describe('bearer tokens an attacker builds', () => {
  let user: TestUser;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' });

  beforeAll(async () => {
    user = await createUser(t);
  });

  /** A payload the server would accept, were it signed right. */
  const claims = () => ({ sub: user.id, ver: 0, iat: now(), exp: now() + DAY });

  const forgeries: Array<[string, () => string]> = [
    // RS/HS confusion: a server that trusted the header's alg would verify this HMAC with the
    // public key it holds for RS256, which the attacker knows.
    ['signed HS256 with an RSA public key as the HMAC secret', () => handSigned({ alg: 'HS256' }, claims(), publicPem)],
    ['claiming RS256, signed with an RSA private key', () => sign(claims(), privateKey, { algorithm: 'RS256' })],
    [
      'claiming RS256 over an HMAC signature made with the real secret',
      () => handSigned({ alg: 'RS256', typ: 'JWT' }, claims(), secret),
    ],
    ...['None', 'NONE', 'nOnE'].map((alg): [string, () => string] => [
      `with alg "${alg}" and no signature`,
      () => `${base64url({ alg, typ: 'JWT' })}.${base64url(claims())}.`,
    ]),
    [
      'with alg "none" over a payload that still carries the real signature',
      () => {
        const [, payload, signature] = user.token.split('.');
        return `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`;
      },
    ],
    [
      'with alg HS256 and an empty signature',
      () => `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims())}.`,
    ],
    ['signed with an empty secret', () => handSigned({ alg: 'HS256' }, claims(), '')],
    [
      'naming a key to use ("kid", "jku") and signed with that key',
      () =>
        handSigned(
          { alg: 'HS256', kid: '../../../../dev/null', jku: 'http://127.0.0.1:9/keys.json' },
          claims(),
          Buffer.alloc(0),
        ),
    ],
    ['without an expiry, though signed with the real secret', () => sign({ sub: user.id, ver: 0 }, secret)],
    [
      'without an issue time, though signed with the real secret',
      () => sign({ sub: user.id, ver: 0, exp: now() + DAY }, secret, { noTimestamp: true }),
    ],
    [
      'issued 31 days ago with an expiry still ahead, signed with the real secret',
      () => sign({ sub: user.id, ver: 0, iat: now() - 31 * DAY, exp: now() + DAY }, secret),
    ],
    ['whose subject is an object', () => sign({ sub: { id: user.id }, ver: 0 }, secret, { expiresIn: '1h' })],
    ['whose subject is a list', () => sign({ sub: [user.id], ver: 0 }, secret, { expiresIn: '1h' })],
    ['whose version is text', () => sign({ sub: user.id, ver: '0' }, secret, { expiresIn: '1h' })],
    ['whose version is ahead of the account’s', () => sign({ sub: user.id, ver: 1 }, secret, { expiresIn: '1h' })],
  ];

  it.each(forgeries)('answers 401 to a token %s and changes nothing', async (_label, forge) => {
    await expectRefused(() => writeWith(`Bearer ${forge()}`));
  });

  it('still accepts a well-formed token signed with the real secret (the forgeries fail for their flaw)', async () => {
    const response = await writeWith(`Bearer ${sign(claims(), secret, { algorithm: 'HS256' })}`);
    expect(response.status).toBe(200);
    expect(response.body._id).toBe(user.id);
  });
});

describe('Authorization headers that are not one bearer token', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(t);
  });

  const headers: Array<[string, () => string]> = [
    ['the scheme alone', () => 'Bearer'],
    ['the scheme and a space', () => 'Bearer '],
    ['two parts instead of three', () => 'Bearer a.b'],
    ['four parts', () => 'Bearer a.b.c.d'],
    ['three empty parts', () => 'Bearer ..'],
    ['Basic credentials with the right password', () => `Basic ${btoa(`${user.userName}:${user.password}`)}`],
    ['another scheme in front of a valid token', () => `Token ${user.token}`],
    ['a valid token twice', () => `Bearer ${user.token} ${user.token}`],
    ['a valid token with junk after it', () => `Bearer ${user.token}x`],
    ['an 8 KB token', () => `Bearer ${'a'.repeat(8 * 1024)}`],
    ['an 8 KB header that starts with a valid token', () => `Bearer ${user.token}.${'a'.repeat(8 * 1024)}`],
  ];

  it.each(headers)('answers 401 to %s and changes nothing', async (_label, header) => {
    await expectRefused(() => writeWith(header()));
  });

  it('refuses a header beyond the server’s header size limit without a 5xx, and keeps serving', async () => {
    const before = await snapshot(t.db);
    const response = await writeWith(`Bearer ${'a'.repeat(64 * 1024)}`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await snapshot(t.db)).toBe(before);
    expect((await writeWith(user.auth)).status).toBe(200);
  });
});

describe('POST /api/logout-all', () => {
  function logoutAll(authorization?: string) {
    const request = t.http.post('/api/logout-all');
    return authorization ? request.set('Authorization', authorization) : request;
  }

  it('answers 200 with a message', async () => {
    const user = await createUser(t);
    const response = await logoutAll(user.auth);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { message: 'Signed out of all devices' },
    });
  });

  it('revokes every earlier token of the caller, the one it was called with included', async () => {
    const user = await createUser(t);
    const laptop = await signIn(user);
    const phone = await signIn(user);
    for (const token of [user.token, laptop, phone]) expect((await writeWith(`Bearer ${token}`)).status).toBe(200);

    await logoutAll(`Bearer ${phone}`).expect(200);

    for (const token of [user.token, laptop, phone]) await expectRefused(() => writeWith(`Bearer ${token}`));
  });

  it('accepts a token issued after it', async () => {
    const user = await createUser(t);
    await logoutAll(user.auth).expect(200);
    const fresh = await signIn(user);
    expect(payloadOf(fresh).ver).toBe(1);
    const response = await writeWith(`Bearer ${fresh}`);
    expect(response.status).toBe(200);
    expect(response.body.bio).toBe('written with this token');
  });

  it('leaves other users’ tokens working', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    await logoutAll(user.auth).expect(200);
    expect((await writeWith(other.auth)).status).toBe(200);
    expect(await tokenVersionOf(other)).toBe(0);
  });

  it('raises the account’s token version by one, in one statement', async () => {
    const user = await createUser(t);
    statements = [];
    recording = true;
    try {
      await logoutAll(user.auth).expect(200);
    } finally {
      recording = false;
    }
    const writes = statements.filter((sql) => !/^\s*select\b/i.test(sql));
    expect(writes).toEqual([expect.stringMatching(/^update "users" set "token_version" = "token_version" \+/)]);
    expect(await tokenVersionOf(user)).toBe(1);
  });

  it('also revokes a token signed before token versions existed (no "ver")', async () => {
    const user = await createUser(t);
    const legacy = t.app.get(JwtService).sign({ sub: user.id });
    expect(payloadOf(legacy).ver).toBeUndefined();
    expect((await writeWith(`Bearer ${legacy}`)).status).toBe(200);
    await logoutAll(user.auth).expect(200);
    await expectRefused(() => writeWith(`Bearer ${legacy}`));
  });

  it('answers 401 to a revoked token and does not raise the version again', async () => {
    const user = await createUser(t);
    await logoutAll(user.auth).expect(200);
    await expectRefused(() => logoutAll(user.auth));
    expect(await tokenVersionOf(user)).toBe(1);
  });

  it('answers 401 without a token and changes nothing', async () => {
    const response = await expectRefused(() => logoutAll());
    expect(response.body.error).toMatch(/log in/i);
  });
});

describe('a revoked token on the reads visitors may make too', () => {
  let cached: TestApp;
  let queries = 0;
  let user: TestUser;
  let post: Post;
  let revoked: string;

  beforeAll(async () => {
    // The visitors' read cache on, as in production.
    cached = await startTestApp({ READ_CACHE_TTL_MS: '60000' }, () => (queries += 1));
    user = await createUser(cached);
    const author = await createUser(cached);
    await cached.http.put('/api/follow').set('Authorization', user.auth).send({ followId: author.id }).expect(200);
    post = await createPost(cached, author);
    await cached.http.put('/api/like').set('Authorization', user.auth).send({ postId: post._id }).expect(200);
    revoked = user.auth;
    await cached.http.post('/api/logout-all').set('Authorization', revoked).expect(200);
  });
  afterAll(() => cached.close());

  async function read(path: string, authorization?: string) {
    queries = 0;
    const request = cached.http.get(path);
    const response = await (authorization ? request.set('Authorization', authorization) : request);
    return { response, queries };
  }

  it('is answered as a visitor, never from the cache and never as its user', async () => {
    const path = `/api/posts/${post._id}?view=compact`;
    await read(path);
    const visitor = await read(path);
    expect(visitor.queries).toBe(0); // the visitors' copy is in the cache

    const withRevoked = await read(path, revoked);

    expect(withRevoked.queries).toBeGreaterThan(0); // built by the app, the token checked
    expect(withRevoked.response.status).toBe(200);
    expect(withRevoked.response.body.post.likes).toEqual([]); // compact: not the revoked user's own like
    expect(withRevoked.response.body).toEqual(visitor.response.body);
  });

  it('does not open the user’s following feed', async () => {
    const withRevoked = await read('/api/posts?feed=following', revoked);
    expect(withRevoked.response.status).toBe(400);
    expect(withRevoked.response.body).toEqual({ error: expect.stringMatching(/log in/i) });

    const fresh = await cached.http.post('/api/signin').send({ userName: user.userName, password: user.password });
    const withFresh = await read('/api/posts?feed=following', `Bearer ${fresh.body.token}`);
    expect(withFresh.response.status).toBe(200);
    expect(withFresh.response.body.posts.map((p: Post) => p._id)).toEqual([post._id]);
  });

  it('is refused on a write while the visitors’ cache is warm', async () => {
    await read(`/api/user/${user.id}`);
    expect((await read(`/api/user/${user.id}`)).queries).toBe(0);
    const before = await snapshot(cached.db);
    const response = await cached.http.put('/api/bio').set('Authorization', revoked).send({ bio: 'still me?' });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 401,
      body: { error: expect.any(String) },
    });
    expect(await snapshot(cached.db)).toBe(before);
  });
});
