import { Client } from 'pg';
import { loadConfig } from '../src/config/app-config';
import { NotificationSignals } from '../src/notifications/notification-signals';
import {
  PG_SIGNAL_APPLICATION_NAME,
  PG_SIGNAL_CHANNEL,
  PgSignalTransport,
} from '../src/notifications/pg-signal-transport';
import {
  REDIS_SIGNAL_CHANNEL,
  REDIS_SIGNAL_CONNECTION_NAME,
  RedisSignalTransport,
} from '../src/notifications/redis-signal-transport';
import { signalTransportFor } from '../src/notifications/signal-transport.provider';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { createServerData, type ServerData } from './support/server-process';
import { startTestAppOn, TEST_DIALECT, type TestApp } from './support/test-app';
import { eventData, listening, openStream, type SseBlock } from './support/event-stream';
import { createPost, createUser } from './support/factories';

/**
 * Notification signals between instances (issue 18, docs/decisions/040): two instances, each with
 * its own NotificationSignals and transport, on one database and, separately, one Redis. A reader's
 * stream listens on one instance while the write lands on the other.
 */

jest.setTimeout(60_000);

const onPostgres = TEST_DIALECT === 'postgres';

let idCount = 0;
/** A fresh user id (ObjectId format, as the app's). */
function userId(): string {
  idCount += 1;
  return `${Date.now().toString(16).padStart(8, '0')}${process.pid.toString(16).padStart(6, '0')}${idCount.toString(16).padStart(10, '0')}`.slice(
    -24,
  );
}

/** Resolves when `signals` tells `user`'s listener; fails after `ms` (a bound, not a wait). */
function nextSignal(signals: NotificationSignals, user: string, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no signal for ${user} within ${ms} ms`));
    }, ms);
    const stop = signals.listen(user, () => {
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}

/** Counts the signals `user`'s listener hears. */
function counter(signals: NotificationSignals, user: string): { count: number; stop: () => void } {
  const heard = { count: 0, stop: () => undefined as void };
  heard.stop = signals.listen(user, () => {
    heard.count += 1;
  });
  return heard;
}

/** Until `check` holds, or fails after `ms`: for what happens in the background (a reconnection). */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What every transport must do, run over each in turn: a signal for a user reaches that user's
 * listeners on the other instance and on the publisher's own, and nobody else's.
 */
async function reachesThatUserOnly(
  from: NotificationSignals,
  to: NotificationSignals,
  ready: () => Promise<boolean>,
): Promise<void> {
  const reader = userId();
  const other = userId();
  const otherHeard = counter(to, other);
  const onOther = nextSignal(to, reader);
  const onOwn = nextSignal(from, reader);
  await eventually(ready);
  await from.changed([reader]);
  await Promise.all([onOwn, onOther]);
  expect(otherHeard.count).toBe(0);
  otherHeard.stop();
}

/** A signal for `count` users at once arrives for each of them (the transport batches it). */
async function carriesWhole(from: NotificationSignals, to: NotificationSignals, count: number): Promise<void> {
  const users = Array.from({ length: count }, () => userId());
  const heard = users.map((user) => nextSignal(to, user));
  await from.changed(users);
  await Promise.all(heard);
}

/** The transport the app's NotificationSignals was given (null: none). */
function transportOf(t: TestApp): unknown {
  const signals: unknown = t.app.get(NotificationSignals);
  return (signals as { transport: unknown }).transport;
}

const isLike = (block: SseBlock): boolean =>
  block.event === 'notification' && eventData(block).notification?.kind === 'like';

/**
 * The whole path: a reader's stream open on `readerApp`, another user likes the reader's post
 * through `writerApp`, and the like's event arrives on the stream.
 */
async function likeReachesTheOtherInstance(writerApp: TestApp, readerApp: TestApp): Promise<void> {
  const reader = await createUser(readerApp);
  const liker = await createUser(writerApp);
  const post = await createPost(readerApp, reader);
  const stream = await openStream(await listening(readerApp.app), '/api/notifications/stream', {
    authorization: reader.auth,
  });
  try {
    expect(stream.status).toBe(200);
    // The first event: the stream is listening for the reader's signals.
    await stream.waitFor((block) => block.event === 'notification');
    await writerApp.http.put('/api/like').set('Authorization', liker.auth).send({ postId: post._id }).expect(200);
    const event = await stream.waitFor(isLike);
    expect(eventData(event)).toEqual({
      unreadCount: 1,
      notification: expect.objectContaining({ kind: 'like', post: { _id: post._id, title: post.title } }),
    });
  } finally {
    stream.close();
  }
}

describe('notification signals across instances', () => {
  let data: ServerData;
  let a: TestApp;
  let b: TestApp;
  let redis: RedisServer;
  /** Two more instances of the app, with REDIS_URL. */
  const redisApps: TestApp[] = [];

  beforeAll(async () => {
    data = await createServerData();
    redis = await startRedisServer();
    // One after the other: they migrate the same database. The apps with Redis first: passport
    // keeps one JWT strategy per process, the last app's (with its database), so the apps closed
    // early must not be the last ones started.
    for (let index = 0; index < 2; index += 1) redisApps.push(await startTestAppOn(data, { REDIS_URL: redis.url }));
    a = await startTestAppOn(data);
    b = await startTestAppOn(data);
  }, 120_000);

  afterAll(async () => {
    for (const app of redisApps) await app.close();
    await redis?.stop();
    await a?.close();
    await b?.close();
    await data?.remove();
  });

  describe('through Redis (REDIS_URL)', () => {
    let signalsA: NotificationSignals;
    let signalsB: NotificationSignals;

    /** Subscribed connections: the two instances here and the two apps with REDIS_URL. */
    const subscribers = async (): Promise<number> =>
      Number((await redis.client.pubsub('NUMSUB', REDIS_SIGNAL_CHANNEL))[1]);

    beforeAll(() => {
      signalsA = new NotificationSignals(new RedisSignalTransport(redis.url));
      signalsB = new NotificationSignals(new RedisSignalTransport(redis.url));
    });

    afterAll(async () => {
      await signalsA?.onModuleDestroy();
      await signalsB?.onModuleDestroy();
    });

    it("reaches the listener for that user on the other instance, and on the publisher's own, but not another user's", async () => {
      await reachesThatUserOnly(signalsA, signalsB, async () => (await subscribers()) === 4);
    });

    it('carries a long list of users whole (in batches)', async () => {
      await carriesWhole(signalsA, signalsB, 450);
    });

    it('still arrives after the subscriber connection is killed (it reconnects and subscribes again)', async () => {
      await redis.client.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await eventually(async () => (await subscribers()) === 4);
      const reader = userId();
      const onB = nextSignal(signalsB, reader);
      await signalsA.changed([reader]);
      await onB;
    });

    it("carries a like written on app instance A to the reader's stream on app instance B (REDIS_URL, either database)", async () => {
      const [appA, appB] = redisApps;
      expect(transportOf(appB)).toBeInstanceOf(RedisSignalTransport);
      await likeReachesTheOtherInstance(appA, appB);
    });

    it('closes both connections of each instance when the instance stops', async () => {
      const named = async (): Promise<number> =>
        ((await redis.client.client('LIST')) as string)
          .split('\n')
          .filter((line) => line.includes(` name=${REDIS_SIGNAL_CONNECTION_NAME} `)).length;
      // Two instances here and the two apps with REDIS_URL: two connections each.
      expect(await named()).toBe(8);
      await signalsA.onModuleDestroy();
      await signalsB.onModuleDestroy();
      await eventually(async () => (await named()) === 4);
      for (const app of redisApps.splice(0)) await app.close();
      await eventually(async () => (await named()) === 0);
    });
  });

  (onPostgres ? describe : describe.skip)('through PostgreSQL LISTEN/NOTIFY (DATABASE_URL, no REDIS_URL)', () => {
    let transportA: PgSignalTransport;
    let transportB: PgSignalTransport;
    let signalsA: NotificationSignals;
    let signalsB: NotificationSignals;
    let admin: Client;

    beforeAll(async () => {
      transportA = signalTransportFor(a.config, a.db) as PgSignalTransport;
      transportB = signalTransportFor(b.config, b.db) as PgSignalTransport;
      signalsA = new NotificationSignals(transportA);
      signalsB = new NotificationSignals(transportB);
      admin = new Client({ connectionString: a.config.databaseUrl ?? '' });
      await admin.connect();
    });

    afterAll(async () => {
      await signalsA?.onModuleDestroy();
      await signalsB?.onModuleDestroy();
      await admin?.end();
    });

    it('is the transport chosen for DATABASE_URL without REDIS_URL', () => {
      expect(transportA).toBeInstanceOf(PgSignalTransport);
      expect(transportOf(a)).toBeInstanceOf(PgSignalTransport);
    });

    it("carries a like written on app instance A to the reader's stream on app instance B", async () => {
      await likeReachesTheOtherInstance(a, b);
    });

    it("closes the app's listening connection when the app closes", async () => {
      const appC = await startTestAppOn(data);
      const pid = (transportOf(appC) as PgSignalTransport).listenerPid;
      expect(pid).toEqual(expect.any(Number));
      const listed = async (): Promise<number> =>
        (await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where pid = $1', [pid]))
          .rows[0].n;
      expect(await listed()).toBe(1);
      await appC.close();
      await eventually(async () => (await listed()) === 0);
    });

    it("reaches the listener for that user on the other instance, and on the publisher's own, but not another user's", async () => {
      await reachesThatUserOnly(signalsA, signalsB, () =>
        Promise.resolve(transportA.listenerPid !== null && transportB.listenerPid !== null),
      );
    });

    it('carries a long list of users whole (NOTIFY payloads stay under 8,000 bytes)', async () => {
      await carriesWhole(signalsA, signalsB, 1000);
    });

    it("ignores signals of another schema on the same database (another deployment's users)", async () => {
      const elsewhere = userId();
      const here = userId();
      const elsewhereHeard = counter(signalsB, elsewhere);
      const onB = nextSignal(signalsB, here);
      // One transaction: PostgreSQL delivers its notifications in order, so the first has been
      // handled when the second arrives.
      await admin.query(`select pg_notify($1, $2), pg_notify($1, current_schema() || ':' || $3)`, [
        PG_SIGNAL_CHANNEL,
        `some_other_schema:${elsewhere}`,
        here,
      ]);
      await onB;
      expect(elsewhereHeard.count).toBe(0);
      elsewhereHeard.stop();
    });

    it('still arrives after the listening connection is terminated (it connects and listens again)', async () => {
      const before = transportB.listenerPid;
      expect(before).not.toBeNull();
      await admin.query('select pg_terminate_backend($1)', [before]);
      await eventually(() => Promise.resolve(transportB.listenerPid !== null && transportB.listenerPid !== before));
      const reader = userId();
      const onB = nextSignal(signalsB, reader);
      await signalsA.changed([reader]);
      await onB;
    });

    it('closes the listening connection when the instance stops', async () => {
      const pids = [transportA.listenerPid, transportB.listenerPid];
      const open = async (): Promise<number> =>
        (
          await admin.query(
            'select count(*)::int as n from pg_stat_activity where application_name = $1 and pid = any($2)',
            [PG_SIGNAL_APPLICATION_NAME, pids],
          )
        ).rows[0].n as number;
      expect(await open()).toBe(2);
      await signalsA.onModuleDestroy();
      await signalsB.onModuleDestroy();
      await eventually(async () => (await open()) === 0);
    });
  });

  describe('the transport each configuration gets', () => {
    it('is none on SQLite without REDIS_URL: the one instance tells its own listeners', async () => {
      const config = loadConfig({ DATA_DIR: data.dataDir, JWT_SECRET: 'x'.repeat(32) });
      expect(signalTransportFor(config, a.db)).toBeNull();
      const signals = new NotificationSignals(null);
      const reader = userId();
      const heard = nextSignal(signals, reader);
      await signals.changed([reader]);
      await heard;
    });

    it('is Redis whenever REDIS_URL is set, on either database, and connects only when started', async () => {
      const config = loadConfig({
        DATA_DIR: data.dataDir,
        JWT_SECRET: 'x'.repeat(32),
        REDIS_URL: 'redis://127.0.0.1:9',
        DATABASE_URL: 'postgres://127.0.0.1:9/none',
      });
      const transport = signalTransportFor(config, a.db);
      expect(transport).toBeInstanceOf(RedisSignalTransport);
      await transport?.close();
    });
  });
});
