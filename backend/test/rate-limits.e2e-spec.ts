import { readdirSync } from 'node:fs';
import { sign } from 'jsonwebtoken';
import sharp from 'sharp';
import request from 'supertest';
import type { Response } from 'supertest';
import { uploadsDirectory } from '../src/uploads/uploads.module';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

/**
 * The limits with RATE_LIMITS=on, through real HTTP. Every test speaks from addresses of its own
 * (X-Forwarded-For from loopback, believed with TRUST_PROXY=loopback), so tests never spend each
 * other's budgets.
 */

const TOO_MANY = /^Too many requests; please try again in \d+ seconds?$/;

let addressCount = 0;
/** A fresh client address (198.18.0.0/15 is reserved for tests like this one). */
function nextAddress(): string {
  addressCount += 1;
  return `198.18.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
}

/** The same app, every request sent as coming from `address` (via the trusted proxy, loopback). */
function from(t: TestApp, address: string): TestApp {
  return { ...t, http: request.agent(t.app.getHttpServer()).set('X-Forwarded-For', address) };
}

/** Asserts the 429 a limit answers: `{ error }` only, Retry-After, and the RateLimit headers at zero. */
function expectTooManyRequests(response: Response, maxSeconds: number): number {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ error: expect.stringMatching(TOO_MANY) });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(response.body.error).toContain(`${retryAfter} second`);
  expect(response.headers['ratelimit-remaining']).toBe('0');
  expect(response.headers['ratelimit-reset']).toBe(String(retryAfter));
  return retryAfter;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rate limits at their default values', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMITS: 'on', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  describe('POST /api/signin', () => {
    it('answers the 11th sign-in from one address within a minute with 429, Retry-After and { error }', async () => {
      const attacker = from(t, nextAddress());
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await attacker.http
          .post('/api/signin')
          .send({ userName: `nobody${attempt}`, password: 'guessed password' });
        expect(response.status).toBe(401);
        expect(response.headers['ratelimit-limit']).toBe('10');
        expect(response.headers['ratelimit-remaining']).toBe(String(10 - attempt));
        expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
      const eleventh = await attacker.http.post('/api/signin').send({ userName: 'nobody11', password: 'guessed' });
      expectTooManyRequests(eleventh, 60);
      expect(eleventh.headers['ratelimit-limit']).toBe('10');

      const someoneElse = await from(t, nextAddress())
        .http.post('/api/signin')
        .send({ userName: 'nobody11', password: 'guessed password' });
      expect(someoneElse.status).toBe(401);
    });

    it('answers the 11th sign-in to one account within a minute with 429, each from another address', async () => {
      // The factory's own sign-in is the account's first of the minute.
      const victim = await createUser(from(t, nextAddress()));
      const spellings = [victim.userName.toUpperCase(), victim.userName.toLowerCase(), ` ${victim.userName} `];
      for (let attempt = 2; attempt <= 10; attempt += 1) {
        const response = await from(t, nextAddress())
          .http.post('/api/signin')
          .send({ userName: spellings[attempt % spellings.length], password: `guess ${attempt}` });
        expect(response.status).toBe(401);
      }
      // Even the right password: the account is shut for the rest of the minute, from anywhere.
      const eleventh = await from(t, nextAddress())
        .http.post('/api/signin')
        .send({ userName: victim.userName, password: victim.password });
      expectTooManyRequests(eleventh, 60);

      const otherAccount = await createUser(from(t, nextAddress()));
      const stillOpen = await from(t, nextAddress())
        .http.post('/api/signin')
        .send({ userName: otherAccount.userName, password: otherAccount.password });
      expect(stillOpen.status).toBe(200);
    });
  });

  describe('POST /api/signup', () => {
    it('answers the 6th sign-up from one address within an hour with 429 and creates no account', async () => {
      const address = nextAddress();
      const signUp = (name: string) =>
        from(t, address)
          .http.post('/api/signup')
          .send({ userName: name, email: `${name}@example.com`, password: 'a good password' });
      for (let index = 1; index <= 5; index += 1) {
        const response = await signUp(`signup${index}_${process.pid}`);
        expect(response.status).toBe(201);
        expect(response.headers['ratelimit-limit']).toBe('5');
      }
      await expectDatabaseUnchanged(t.db, async () => {
        expectTooManyRequests(await signUp(`signup6_${process.pid}`), 3600);
      });
      const elsewhere = await from(t, nextAddress())
        .http.post('/api/signup')
        .send({
          userName: `signup7_${process.pid}`,
          email: `signup7_${process.pid}@example.com`,
          password: 'pw12345678',
        });
      expect(elsewhere.status).toBe(201);
    });
  });

  describe('POST /api/createpost, POST /api/createnotice and PUT /api/comment', () => {
    it('give each user 10 a minute together, wherever the user writes from, and leave other users alone', async () => {
      const shared = nextAddress();
      const alice = await createUser(from(t, nextAddress()));
      const bob = await createUser(from(t, nextAddress()));
      // Alice writes from three addresses: one budget, hers.
      const post = await createPost(from(t, shared), alice);
      for (let index = 0; index < 3; index += 1) await createPost(from(t, shared), alice);
      for (let index = 0; index < 3; index += 1) await createNotice(from(t, nextAddress()), alice);
      const commenter = from(t, nextAddress());
      for (let index = 0; index < 3; index += 1) {
        const comment = await commenter.http
          .put('/api/comment')
          .set('Authorization', alice.auth)
          .send({ postId: post._id, text: `Comment ${index}` });
        expect(comment.status).toBe(200);
      }

      await expectDatabaseUnchanged(t.db, async () => {
        const eleventh = await from(t, nextAddress())
          .http.post('/api/createpost')
          .set('Authorization', alice.auth)
          .send({ title: 'One too many', desc: 'Refused' });
        expectTooManyRequests(eleventh, 60);
      });

      // Bob, from the very address Alice used, has his own budget.
      const bobPosts = await from(t, shared)
        .http.post('/api/createpost')
        .set('Authorization', bob.auth)
        .send({ title: 'Mine', desc: 'Allowed' });
      expect(bobPosts.status).toBe(201);
      expect(bobPosts.headers['ratelimit-limit']).toBe('10');
      expect(bobPosts.headers['ratelimit-remaining']).toBe('9');
    });

    it('counts a forged token by its address, never against the user it names', async () => {
      const victim = await createUser(from(t, nextAddress()));
      const forged = sign({ sub: victim.id }, 'another-secret-that-is-at-least-32-characters', {
        algorithm: 'HS256',
        expiresIn: '1h',
      });
      const attacker = from(t, nextAddress());
      const write = () =>
        attacker.http.post('/api/createpost').set('Authorization', `Bearer ${forged}`).send({ title: 'x', desc: 'y' });
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await write()).status).toBe(401);
      expectTooManyRequests(await write(), 60);

      const own = await from(t, nextAddress())
        .http.post('/api/createpost')
        .set('Authorization', victim.auth)
        .send({ title: 'Still mine', desc: 'Untouched budget' });
      expect(own.status).toBe(201);
      expect(own.headers['ratelimit-remaining']).toBe('9');
    });
  });

  describe('PUT /api/like, /api/unlike, /api/follow and /api/unfollow', () => {
    it('give each user 60 a minute together, and leave other users alone', async () => {
      const address = nextAddress();
      const author = await createUser(from(t, nextAddress()));
      const liker = await createUser(from(t, nextAddress()));
      const other = await createUser(from(t, nextAddress()));
      const post = await createPost(from(t, nextAddress()), author);
      const react = (user: TestUser, path: string, body: object) =>
        from(t, address).http.put(path).set('Authorization', user.auth).send(body);

      for (let pair = 0; pair < 15; pair += 1) {
        expect((await react(liker, '/api/like', { postId: post._id })).status).toBe(200);
        expect((await react(liker, '/api/unlike', { postId: post._id })).status).toBe(200);
        expect((await react(liker, '/api/follow', { followId: author.id })).status).toBe(200);
        expect((await react(liker, '/api/unfollow', { unfollowId: author.id })).status).toBe(200);
      }
      await expectDatabaseUnchanged(t.db, async () => {
        expectTooManyRequests(await react(liker, '/api/like', { postId: post._id }), 60);
        expectTooManyRequests(await react(liker, '/api/follow', { followId: author.id }), 60);
      });

      const othersLike = await react(other, '/api/like', { postId: post._id });
      expect(othersLike.status).toBe(200);
      expect(othersLike.headers['ratelimit-limit']).toBe('60');
    });
  });

  describe('PUT /api/bookmark and /api/unbookmark', () => {
    it("share the likes' and follows' budget: 60 a minute per user", async () => {
      const address = nextAddress();
      const author = await createUser(from(t, nextAddress()));
      const saver = await createUser(from(t, nextAddress()));
      const post = await createPost(from(t, nextAddress()), author);
      const put = (path: string) =>
        from(t, address).http.put(path).set('Authorization', saver.auth).send({ postId: post._id });
      for (let pair = 0; pair < 25; pair += 1) {
        expect((await put('/api/bookmark')).status).toBe(200);
        expect((await put('/api/unbookmark')).status).toBe(200);
      }
      for (let like = 0; like < 10; like += 1) expect((await put('/api/like')).status).toBe(200);
      await expectDatabaseUnchanged(t.db, async () => {
        expectTooManyRequests(await put('/api/bookmark'), 60);
        expectTooManyRequests(await put('/api/unbookmark'), 60);
      });
    });
  });

  describe('POST /api/drafts, PUT and DELETE /api/drafts/:id', () => {
    it('give each user 120 a minute (six editors autosaving every 3 s), apart from the content budget', async () => {
      const address = nextAddress();
      const writer = await createUser(from(t, nextAddress()));
      const other = await createUser(from(t, nextAddress()));
      // One client address for both users: the limit is per user, not per address.
      const client = () => from(t, address).http;
      const created = await client().post('/api/drafts').set('Authorization', writer.auth).send({ kind: 'post' });
      expect(created.status).toBe(201);
      const id = created.body.draft._id as string;
      const save = (version: number) =>
        client()
          .put(`/api/drafts/${id}`)
          .set('Authorization', writer.auth)
          .send({ version, body: `v${version}` });
      for (let version = 1; version < 120; version += 1) expect((await save(version)).status).toBe(200);
      expectTooManyRequests(await save(120), 60);
      expectTooManyRequests(await client().delete(`/api/drafts/${id}`).set('Authorization', writer.auth), 60);

      // Reading drafts and publishing are not counted against it; other users have their own.
      expect((await client().get(`/api/drafts/${id}`).set('Authorization', writer.auth)).status).toBe(200);
      await createPost(from(t, address), writer);
      const othersDraft = await client().post('/api/drafts').set('Authorization', other.auth).send({ kind: 'post' });
      expect(othersDraft.status).toBe(201);
      expect(othersDraft.headers['ratelimit-limit']).toBe('120');
    });
  });

  describe('PUT /api/password, PUT /api/email and DELETE /api/account', () => {
    it("share sign-in's budget per address: a stolen token is no way to guess the password", async () => {
      const address = nextAddress();
      const user = await createUser(from(t, nextAddress()));
      const client = () => from(t, address).http;
      const guesses = [
        () =>
          client()
            .put('/api/password')
            .set('Authorization', user.auth)
            .send({ current: 'guess', next: 'a new passphrase' }),
        () =>
          client()
            .put('/api/email')
            .set('Authorization', user.auth)
            .send({ password: 'guess', email: 'new@example.com' }),
        () =>
          client()
            .delete('/api/account')
            .set('Authorization', user.auth)
            .send({ password: 'guess', content: 'delete' }),
      ];
      await expectDatabaseUnchanged(t.db, async () => {
        for (let attempt = 0; attempt < 10; attempt += 1) {
          const response = await guesses[attempt % 3]();
          expect(response.status).toBe(403);
          expect(response.headers['ratelimit-limit']).toBe('10');
        }
        expectTooManyRequests(await guesses[1](), 60);
        expectTooManyRequests(
          await client().post('/api/signin').send({ userName: user.userName, password: 'guess' }),
          60,
        );
      });
      // From elsewhere the account is untouched and the right password still works.
      const right = await from(t, nextAddress())
        .http.put('/api/password')
        .set('Authorization', user.auth)
        .send({ current: user.password, next: 'a new passphrase' });
      expect(right.status).toBe(200);
    });
  });
});

describe('rate limits with short windows', () => {
  let t: TestApp;
  let statements = 0;
  beforeAll(async () => {
    t = await startTestApp(
      {
        RATE_LIMITS: 'on',
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_API: '5/3s',
        RATE_LIMIT_SIGN_IN: '3/3s',
        RATE_LIMIT_UPLOAD: '2/1h',
        READ_CACHE_TTL_MS: '60000',
      },
      () => (statements += 1),
    );
  });
  afterAll(() => t.close());

  describe('any API request', () => {
    it('is limited per visitor address, replies served from the read cache included', async () => {
      const visitor = from(t, nextAddress());
      const first = await visitor.http.get('/api/top-posts');
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-limit']).toBe('5');
      expect(first.headers['ratelimit-remaining']).toBe('4');
      const statementsAfterFirst = statements;
      // At once, so that the burst stays inside the window however busy the machine is.
      const cached = await Promise.all([2, 3, 4, 5].map(() => visitor.http.get('/api/top-posts')));
      expect(cached.map((response) => response.status)).toEqual([200, 200, 200, 200]);
      expect(cached.map((response) => response.headers['ratelimit-remaining']).sort()).toEqual(['0', '1', '2', '3']);
      // Answered from memory, without a statement, and still counted.
      expect(statements).toBe(statementsAfterFirst);
      expectTooManyRequests(await visitor.http.get('/api/top-posts'), 3);
      expectTooManyRequests(await visitor.http.get('/api/no-such-route'), 3);

      expect((await from(t, nextAddress()).http.get('/api/top-posts')).status).toBe(200);
    });

    it('is allowed again once the window has passed', async () => {
      const visitor = from(t, nextAddress());
      const burst = await Promise.all([1, 2, 3, 4, 5].map(() => visitor.http.get('/api/health')));
      expect(burst.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      const retryAfter = expectTooManyRequests(await visitor.http.get('/api/health'), 3);
      await sleep(retryAfter * 1000 + 300);
      const again = await visitor.http.get('/api/health');
      expect(again.status).toBe(200);
      expect(Number(again.headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(3);
    });

    it('does not count uploaded files or other paths outside /api', async () => {
      const visitor = from(t, nextAddress());
      for (let index = 0; index < 8; index += 1) {
        const file = await visitor.http.get('/uploads/default-avatar.svg');
        expect(file.status).toBe(200);
        expect(file.headers['ratelimit-limit']).toBeUndefined();
        await visitor.http.get('/some/page');
      }
      const api = await visitor.http.get('/api/health');
      expect(api.status).toBe(200);
      expect(api.headers['ratelimit-remaining']).toBe('4');
    });
  });

  describe('POST /api/signin', () => {
    it('is allowed again once the window has passed', async () => {
      const client = from(t, nextAddress());
      // No password: refused at validation, after the limit has counted it. Cheap requests keep
      // the burst well inside the window however busy the machine is.
      const attempt = () => client.http.post('/api/signin').send({ userName: 'someone' });
      const burst = await Promise.all([attempt(), attempt(), attempt()]);
      expect(burst.map((response) => response.status)).toEqual([400, 400, 400]);
      const retryAfter = expectTooManyRequests(await attempt(), 3);
      await sleep(retryAfter * 1000 + 300);
      expect((await attempt()).status).toBe(400);
    });
  });

  describe('POST /api/upload', () => {
    it('gives a visitor address 2 uploads and a logged-in user a budget of their own', async () => {
      const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a0' } })
        .png()
        .toBuffer();
      const address = nextAddress();
      const user = await createUser(from(t, nextAddress()));
      const upload = (token?: string) => {
        const call = from(t, address).http.post('/api/upload');
        if (token) void call.set('Authorization', `Bearer ${token}`);
        return call.attach('file', image, { filename: 'dot.png', contentType: 'image/png' });
      };
      expect((await upload()).status).toBe(201);
      expect((await upload()).status).toBe(201);
      const stored = readdirSync(uploadsDirectory(t.config)).length;
      expectTooManyRequests(await upload(), 3600);
      expect(readdirSync(uploadsDirectory(t.config))).toHaveLength(stored);

      const own = await upload(user.token);
      expect(own.status).toBe(201);
      expect(own.headers['ratelimit-limit']).toBe('2');
    });
  });
});

describe('rate limits without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMITS: 'on', RATE_LIMIT_SIGN_IN: '2/1m' });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For, so a client cannot pose as many addresses', async () => {
    const attempt = (index: number) =>
      from(t, nextAddress())
        .http.post('/api/signin')
        .send({ userName: `someone${index}` });
    expect((await attempt(1)).status).toBe(400);
    expect((await attempt(2)).status).toBe(400);
    expectTooManyRequests(await attempt(3), 60);
  });
});

describe('RATE_LIMITS=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMITS: 'off' });
  });
  afterAll(() => t.close());

  it('turns every limit off: no 429 and no RateLimit headers', async () => {
    // Six sign-ups, eleven more sign-ins and eleven posts from one address: each over its limit.
    for (let index = 0; index < 5; index += 1) await createUser(t);
    const user = await createUser(t);
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const response = await t.http.post('/api/signin').send({ userName: user.userName, password: user.password });
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    }
    for (let index = 0; index < 11; index += 1) await createPost(t, user);
  });
});
