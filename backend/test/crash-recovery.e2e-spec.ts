import { sql } from 'kysely';
import type { Db } from '../src/database/database.types';
import { callApi, signUpAndIn } from '@techit/testkit/api-client';
import { POST_COUNTERS_QUERY, type PostCountersRow } from '@techit/testkit/counter-query';
import type { ServerProcess } from '@techit/testkit/server-launcher';
import { createServerData, type ServerData, startServer } from './support/server-process';
import { seededRandom } from './support/seeded-random';
import { startTestApp } from './support/test-app';

/**
 * The process dies without warning (SIGKILL: the OOM killer, `kill -9`, a stuck container stopped) while
 * several clients write. Whatever the server acknowledged must survive, and the counters kept
 * beside the rows must still equal the rows.
 */
jest.setTimeout(180_000);

const CLIENTS = 6;
/** The kill comes once this many writes were acknowledged, with the other clients mid-request. */
const KILL_AFTER_ACKNOWLEDGED = 120;

interface Client {
  id: string;
  token: string;
}

/** What a client last asked for on one like or follow, and whether the server confirmed it. */
interface LastRequest {
  wanted: boolean;
  acknowledged: boolean;
}

let data: ServerData;
let server: ServerProcess | undefined;

beforeAll(async () => {
  data = await createServerData();
});
afterAll(async () => {
  await server?.stop();
  await data.remove();
});

describe('Crash recovery', () => {
  it('after a SIGKILL mid-burst, restarts cleanly with every acknowledged write and exact counters', async () => {
    server = await startServer(data);
    const url = server.url;
    const random = seededRandom(process.pid);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const clients: Client[] = await Promise.all(
      Array.from({ length: CLIENTS }, (_, index) => signUpAndIn(url, { userName: `crash${index}_${process.pid}` })),
    );

    const signedUp: string[] = [];
    const posts = new Map<string, string>();
    const comments: { postId: string; text: string }[] = [];
    const likes = new Map<string, LastRequest>();
    const follows = new Map<string, LastRequest>();
    const refused: string[] = [];
    let acknowledged = 0;
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    let sequence = 0;

    for (const client of clients) {
      const reply = await callApi(url, 'POST', '/api/createpost', {
        json: { title: 'First', desc: 'Seed' },
        token: client.token,
      });
      const post = (reply.body as { post: { _id: string } }).post;
      posts.set(post._id, 'First');
    }

    /** Sends one request; true when it was acknowledged, false when its outcome is unknown. */
    const send = async (method: string, path: string, body: unknown, token?: string): Promise<unknown> => {
      inFlight += 1;
      try {
        const reply = await callApi(url, method, path, { json: body, token });
        if (reply.status >= 200 && reply.status < 300) {
          acknowledged += 1;
          return reply.body;
        }
        refused.push(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
      } catch (error) {
        // Only the kill may break a connection; anything earlier is a failure of its own.
        if (!killed) refused.push(`${method} ${path} → ${String(error)}`);
      } finally {
        inFlight -= 1;
      }
      return undefined;
    };

    const writeOnce = async (client: Client): Promise<void> => {
      sequence += 1;
      const n = sequence;
      const roll = random();
      if (roll < 0.1) {
        const userName = `joined${n}_${process.pid}`;
        const body = { userName, email: `${userName}@example.com`, password: 'correct horse battery' };
        if (await send('POST', '/api/signup', body)) signedUp.push(userName);
      } else if (roll < 0.3) {
        const title = `Burst post ${n}`;
        const reply = (await send('POST', '/api/createpost', { title, desc: 'Written in a burst' }, client.token)) as
          { post: { _id: string } } | undefined;
        if (reply) posts.set(reply.post._id, title);
      } else if (roll < 0.6) {
        const postId = pick([...posts.keys()]);
        const wanted = random() < 0.6;
        const last: LastRequest = { wanted, acknowledged: false };
        likes.set(`${client.id}|${postId}`, last);
        last.acknowledged =
          (await send('PUT', wanted ? '/api/like' : '/api/unlike', { postId }, client.token)) !== undefined;
      } else if (roll < 0.8) {
        const postId = pick([...posts.keys()]);
        const text = `Comment ${n} from ${client.id}`;
        if (await send('PUT', '/api/comment', { postId, text }, client.token)) comments.push({ postId, text });
      } else {
        const other = pick(clients.filter((candidate) => candidate !== client));
        const wanted = random() < 0.6;
        const last: LastRequest = { wanted, acknowledged: false };
        follows.set(`${client.id}|${other.id}`, last);
        const body = wanted ? { followId: other.id } : { unfollowId: other.id };
        last.acknowledged =
          (await send('PUT', wanted ? '/api/follow' : '/api/unfollow', body, client.token)) !== undefined;
      }
    };

    const running = server;
    // Each client writes one request after another; the clients run side by side.
    await Promise.all(
      clients.map(async (client) => {
        while (!killed && refused.length === 0) {
          await writeOnce(client);
          if (!killed && acknowledged >= KILL_AFTER_ACKNOWLEDGED) {
            killed = true;
            inFlightAtKill = inFlight;
            running.child.kill('SIGKILL');
          }
        }
      }),
    );
    expect(refused).toEqual([]);
    expect(await running.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The kill landed in the middle of the burst, with requests on the wire.
    expect(inFlightAtKill).toBeGreaterThan(0);

    server = await startServer(data);
    const db = data.open();
    try {
      if (data.dialect === 'sqlite') {
        const check = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db);
        expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
      }

      const userNames = new Set((await db.selectFrom('users').select('user_name').execute()).map((u) => u.user_name));
      expect(signedUp.filter((userName) => !userNames.has(userName))).toEqual([]);

      const storedPosts = await db.selectFrom('posts').select(['id', 'title']).execute();
      const titles = new Map(storedPosts.map((post) => [post.id, post.title]));
      expect([...posts].filter(([id, title]) => titles.get(id) !== title)).toEqual([]);

      const storedComments = new Set(
        (await db.selectFrom('comments').select(['post_id', 'text']).execute()).map((c) => `${c.post_id}|${c.text}`),
      );
      expect(comments.filter((c) => !storedComments.has(`${c.postId}|${c.text}`))).toEqual([]);

      const likeRows = new Set(
        (await db.selectFrom('likes').select(['user_id', 'post_id']).execute()).map((l) => `${l.user_id}|${l.post_id}`),
      );
      expectFinalStates(likes, likeRows);
      const followRows = new Set(
        (await db.selectFrom('follows').select(['follower_id', 'followee_id']).execute()).map(
          (f) => `${f.follower_id}|${f.followee_id}`,
        ),
      );
      expectFinalStates(follows, followRows);

      await expectCountersEqualRows(db);
      for (const client of clients) {
        const profile = await callApi(server.url, 'GET', `/api/user/${client.id}`);
        const { followers, following } = (profile.body as { user: { followers: string[]; following: string[] } }).user;
        expect(followers.length).toBe([...followRows].filter((key) => key.endsWith(`|${client.id}`)).length);
        expect(following.length).toBe([...followRows].filter((key) => key.startsWith(`${client.id}|`)).length);
      }
    } finally {
      await db.destroy();
    }

    // And it takes writes again.
    const after = await callApi(server.url, 'POST', '/api/createpost', {
      json: { title: 'After', desc: 'the crash' },
      token: clients[0].token,
    });
    expect(after.status).toBe(201);
  });
});

describe('Durability settings', () => {
  it("commits durably on the app's own connection: SQLite WAL + synchronous NORMAL, busy timeout, foreign keys; PostgreSQL fsync + synchronous_commit", async () => {
    const t = await startTestApp();
    try {
      const read = async (statement: string) =>
        (await sql.raw<Record<string, unknown>>(statement).execute(t.db)).rows[0];
      if (t.dialect === 'sqlite') {
        expect(await read('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
        // 1 is NORMAL (in WAL mode a commit survives a crash of the process), 2 FULL, 3 EXTRA.
        expect(Number((await read('PRAGMA synchronous')).synchronous)).toBeGreaterThanOrEqual(1);
        expect(Number((await read('PRAGMA busy_timeout')).timeout)).toBeGreaterThanOrEqual(1000);
        expect(await read('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 });
      } else {
        expect(await read('SHOW fsync')).toEqual({ fsync: 'on' });
        expect(await read('SHOW synchronous_commit')).toEqual({ synchronous_commit: 'on' });
      }
    } finally {
      await t.close();
    }
  });
});

/** Each acknowledged last request is what the table holds; one still on the wire may have gone either way. */
function expectFinalStates(lastRequests: Map<string, LastRequest>, rows: Set<string>): void {
  const known = [...lastRequests].filter(([, last]) => last.acknowledged);
  expect(known.length).toBeGreaterThan(0);
  expect(known.filter(([key, last]) => rows.has(key) !== last.wanted)).toEqual([]);
}

async function expectCountersEqualRows(db: Db): Promise<void> {
  const posts = (await sql.raw<PostCountersRow>(POST_COUNTERS_QUERY).execute(db)).rows;
  const stored = posts.map((p) => [p.id, Number(p.likes_count), Number(p.comments_count), Number(p.commenters_count)]);
  const real = posts.map((p) => [p.id, Number(p.likes), Number(p.comments), Number(p.commenters)]);
  expect(stored).toEqual(real);
}
