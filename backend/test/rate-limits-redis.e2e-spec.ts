import { Logger } from '@nestjs/common';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { REDIS_KEY_PREFIX, RedisRateLimitStorage } from '../src/rate-limit/redis-rate-limit-storage';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { createServerData, type ServerData } from './support/server-process';
import { startTestAppOn, type TestApp } from './support/test-app';

/**
 * Two instances of the app on one database and one real redis-server (REDIS_URL), as behind a
 * load balancer: a client's requests land on either, and its limits must hold across both.
 * Every test speaks from addresses of its own (X-Forwarded-For, believed from loopback).
 */

jest.setTimeout(60_000);

let addressCount = 0;
/** A fresh client address (198.18.0.0/15 is reserved for tests like this one). */
function nextAddress(): string {
  addressCount += 1;
  return `198.18.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
}

function from(t: TestApp, address: string): TestAgent {
  return request.agent(t.app.getHttpServer()).set('X-Forwarded-For', address);
}

function signIn(t: TestApp, address: string) {
  return from(t, address)
    .post('/api/signin')
    .send({ userName: `nobody-${address}`, password: 'guessed password' });
}

/** Until `check` holds, or fails after `ms`: for what happens in the background (a reconnection). */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('rate limits shared through Redis (REDIS_URL)', () => {
  let redis: RedisServer;
  let data: ServerData;
  let a: TestApp;
  let b: TestApp;
  let open: TestApp[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    data = await createServerData();
    const settings = {
      RATE_LIMITS: 'on',
      TRUST_PROXY: 'loopback',
      REDIS_URL: redis.url,
      // A short window, for the test that waits for the reset.
      RATE_LIMIT_SIGN_UP: '3/2s',
    };
    // One after the other: both migrate the same database.
    a = await startTestAppOn(data, settings);
    b = await startTestAppOn(data, settings);
    open = [a, b];
  }, 120_000);

  afterAll(async () => {
    for (const t of open) await t.close();
    await data?.remove();
    await redis?.stop();
  });

  describe('POST /api/signin', () => {
    it('refuses the 11th sign-in from one address within a minute, 6 made on one instance and 5 on the other', async () => {
      const address = nextAddress();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await signIn(attempt <= 6 ? a : b, address);
        expect(response.status).toBe(401);
        // The remaining budget shrinks across instances: one counter.
        expect(response.headers['ratelimit-remaining']).toBe(String(10 - attempt));
      }
      const eleventh = await signIn(b, address);
      expect(eleventh.status).toBe(429);
      expect(eleventh.body).toEqual({
        error: expect.stringMatching(/^Too many requests; please try again in \d+ seconds?$/),
      });
      expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signIn(a, address)).status).toBe(429);
      // Another address still has its whole budget.
      expect((await signIn(a, nextAddress())).status).toBe(401);
    });

    it('keeps the counters in Redis under techit:rl:, each expiring with its window', async () => {
      const address = nextAddress();
      await signIn(a, address);
      await signIn(b, address);
      const key = `${REDIS_KEY_PREFIX}signIn:ip:${address}`;
      expect(await redis.client.get(key)).toBe('2');
      const ttl = await redis.client.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await redis.client.get(`${REDIS_KEY_PREFIX}api:ip:${address}`)).toBe('2');
      const keys = await redis.client.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((name) => !name.startsWith(REDIS_KEY_PREFIX))).toEqual([]);
    });
  });

  describe('POST /api/signup', () => {
    it('lets an address sign up again on every instance once the window that refused it is over', async () => {
      const address = nextAddress();
      // Empty bodies: refused by validation (400) after the limit counted them, so no account is made.
      for (const t of [a, b, a]) expect((await from(t, address).post('/api/signup').send({})).status).toBe(400);
      const refused = await from(b, address).post('/api/signup').send({});
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(2);
      expect((await from(a, address).post('/api/signup').send({})).status).toBe(429);

      await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 300));
      expect((await from(a, address).post('/api/signup').send({})).status).toBe(400);
      expect((await from(b, address).post('/api/signup').send({})).status).toBe(400);
    });
  });

  describe('when Redis fails', () => {
    it('answers without waiting on a Redis that accepts connections but never replies', async () => {
      redis.pause();
      try {
        const address = nextAddress();
        const started = Date.now();
        const response = await signIn(a, address);
        expect(response.status).toBe(401);
        // The command timeout is 500 ms; far below any client's patience even on a loaded machine.
        expect(Date.now() - started).toBeLessThan(5000);
        // Counted by the instance meanwhile, so the reply still carries the limit.
        expect(response.headers['ratelimit-limit']).toBe('10');
      } finally {
        redis.resume();
      }
    });

    it('keeps serving with Redis down, each instance holding the limits on its own', async () => {
      await redis.kill();
      const address = nextAddress();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await signIn(a, address);
        expect(response.status).toBe(401);
        expect(response.headers['ratelimit-remaining']).toBe(String(10 - attempt));
      }
      expect((await signIn(a, address)).status).toBe(429);
      // The other instance has counted none of them: its own budget, as a single machine would.
      expect((await signIn(b, address)).status).toBe(401);
      expect((await from(b, nextAddress()).get('/api/health')).status).toBe(200);
    });

    it('shares the limits again once Redis is back', async () => {
      await redis.start();
      // Each instance reconnects in the background: wait until each counts in Redis again.
      for (const t of [a, b]) {
        await eventually(async () => {
          const probe = nextAddress();
          await from(t, probe).get('/api/health');
          return (await redis.client.exists(`${REDIS_KEY_PREFIX}api:ip:${probe}`)) === 1;
        }, 30_000);
      }
      const address = nextAddress();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await signIn(attempt % 2 === 0 ? a : b, address)).status).toBe(401);
      }
      expect((await signIn(a, address)).status).toBe(429);
    });
  });

  it('closes its connection to Redis when the app closes', async () => {
    const clients = async () => ((await redis.client.client('LIST')) as string).trim().split('\n').length;
    // The two instances' rate-limit connections, their notification signals' two each
    // (docs/decisions/040), and this test's own client.
    await eventually(async () => (await clients()) === 7, 10_000);
    for (const t of open) await t.close();
    open = [];
    await eventually(async () => (await clients()) === 1, 10_000);
  });
});

describe('RedisRateLimitStorage', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());

  it('counts concurrent hits from two instances exactly: the limit is never exceeded, no hit is lost', async () => {
    const first = new RedisRateLimitStorage(redis.url);
    const second = new RedisRateLimitStorage(redis.url);
    try {
      await Promise.all([first.connected(), second.connected()]);
      const records = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          (index % 2 === 0 ? first : second).increment('burst', 60_000, 50, 60_000, 'burst'),
        ),
      );
      const allowed = records.filter((record) => !record.isBlocked);
      expect(allowed).toHaveLength(50);
      expect(new Set(allowed.map((record) => record.totalHits))).toEqual(
        new Set(Array.from({ length: 50 }, (_, i) => i + 1)),
      );
      // Refused hits are not counted: the 51st blocked the key and the rest found it blocked.
      expect(await redis.client.get(`${REDIS_KEY_PREFIX}burst`)).toBe('51');
      for (const record of records.filter((r) => r.isBlocked)) {
        expect(record.timeToBlockExpire).toBeGreaterThan(0);
        expect(record.timeToBlockExpire).toBeLessThanOrEqual(60);
      }
    } finally {
      await Promise.all([first.onApplicationShutdown(), second.onApplicationShutdown()]);
    }
  });

  it('blocks for the block duration from the hit that went over, without extending it on refused hits', async () => {
    const storage = new RedisRateLimitStorage(redis.url);
    try {
      await storage.connected();
      for (let hit = 1; hit <= 2; hit += 1) {
        expect((await storage.increment('block', 1_000, 2, 30_000, 'block')).isBlocked).toBe(false);
      }
      const over = await storage.increment('block', 1_000, 2, 30_000, 'block');
      expect(over).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
      const ttlAfterOver = await redis.client.pttl(`${REDIS_KEY_PREFIX}block`);
      // Past the 1 s window: still refused, for the 30 s block.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect((await storage.increment('block', 1_000, 2, 30_000, 'block')).isBlocked).toBe(true);
      expect(await redis.client.pttl(`${REDIS_KEY_PREFIX}block`)).toBeLessThan(ttlAfterOver);
    } finally {
      await storage.onApplicationShutdown();
    }
  });

  it('logs an error once when Redis goes away, counts locally meanwhile, and logs again when it is back', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const logs = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const storage = new RedisRateLimitStorage(redis.url, { retryAfterFailureMs: 100 });
    try {
      await storage.connected();
      await redis.kill();
      for (let hit = 1; hit <= 5; hit += 1) {
        expect(await storage.increment('outage', 60_000, 3, 60_000, 'outage')).toMatchObject({
          totalHits: Math.min(hit, 4),
          isBlocked: hit > 3,
        });
      }
      const outage = errors.mock.calls.map(([message]) => String(message));
      expect(outage).toHaveLength(1);
      expect(outage[0]).toMatch(
        /^Redis at 127\.0\.0\.1:\d+ is unavailable \(.+\): rate limits are counted by each instance alone/,
      );

      await redis.start();
      await eventually(async () => {
        await storage.increment('back', 60_000, 100, 60_000, 'back');
        return (await redis.client.exists(`${REDIS_KEY_PREFIX}back`)) === 1;
      }, 20_000);
      expect(logs.mock.calls.map(([message]) => String(message))).toContainEqual(
        expect.stringMatching(/answers again: rate limits are shared by every instance$/),
      );
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
      logs.mockRestore();
      await storage.onApplicationShutdown();
    }
  });
});
