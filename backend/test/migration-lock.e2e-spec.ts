import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { Client } from 'pg';
import { createDatabase } from '../src/database/create-database';
import { migrationNames } from '../src/database/migrations';
import { createPost, createUser } from './support/factories';
import { callApi, signUpAndIn } from '@techit/testkit/api-client';
import type { ServerProcess } from '@techit/testkit/server-launcher';
import { createServerData, type ServerData, startServer } from './support/server-process';
import { startTestApp, startTestAppOn, type TestApp } from './support/test-app';

/**
 * Instances that start together on a fresh database (a deployment of several, or a restart of
 * all of them after an upgrade) must migrate it once: on PostgreSQL Kysely holds an advisory
 * lock while migrating, on SQLite a lock file beside the database does.
 */

jest.setTimeout(120_000);

async function recordedMigrations(data: ServerData): Promise<string[]> {
  const db = data.open();
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.map((row) => row.name);
  } finally {
    await db.destroy();
  }
}

describe('migrations when instances start together', () => {
  let data: ServerData;
  beforeEach(async () => {
    data = await createServerData();
  });
  afterEach(() => data.remove());

  it('migrates a fresh database once when three instances start on it at the same moment', async () => {
    const createdUsers: number[] = [0, 0, 0];
    const started = await Promise.allSettled(
      [0, 1, 2].map((index) =>
        startTestAppOn(data, {}, (statement) => {
          if (/^create table "users"/i.test(statement)) createdUsers[index] += 1;
        }),
      ),
    );
    const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(started.filter((result) => result.status === 'rejected')).toEqual([]);
      // One instance ran the migrations; the others waited for it and found nothing pending.
      expect(createdUsers.reduce((sum, count) => sum + count, 0)).toBe(1);
      expect(await recordedMigrations(data)).toEqual(migrationNames());

      // The schema is whole, whichever instance a request lands on.
      const [a, b, c] = instances as [TestApp, TestApp, TestApp];
      const author = await createUser(a);
      const post = await createPost(b, author, { title: 'Written through the second instance' });
      const read = await c.http.get(`/api/posts/${post._id}`).set('Authorization', author.auth);
      expect(read.status).toBe(200);
      expect(read.body.post.title).toBe('Written through the second instance');
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});

/** Kysely's advisory lock id for migrations (postgres-adapter.js): held here as a migrating instance would hold it. */
const KYSELY_MIGRATION_LOCK_ID = '3853314791062309107';

interface HeldLock {
  /** Where the servers start: `data`, or on PostgreSQL a database of the test's own. */
  data: ServerData;
  release(): Promise<void>;
  /** After the servers stopped. */
  remove(): Promise<void>;
}

/**
 * The migration lock, held by the test as a migrating instance would hold it. On PostgreSQL in a
 * database of the test's own: advisory locks are per database, and holding Kysely's on the shared
 * test database would hold up every other suite's start.
 */
async function holdMigrationLock(data: ServerData): Promise<HeldLock> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    const holder = new SQLite(`${data.sqliteFile}.migration-lock`);
    holder.exec('BEGIN EXCLUSIVE');
    return {
      data,
      release: () => {
        // Closing the connection ends its transaction and so the lock.
        holder.close();
        return Promise.resolve();
      },
      remove: () => Promise.resolve(),
    };
  }
  const name = `techit_lock_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const holder = new Client({ connectionString: databaseUrl });
  await holder.connect();
  await holder.query(`SELECT pg_advisory_lock(${KYSELY_MIGRATION_LOCK_ID})`);
  return {
    data: { ...data, databaseUrl, open: () => createDatabase({ databaseUrl, dataDir: data.dataDir }).db },
    release: () => holder.end(),
    async remove() {
      // FORCE: ends any connection a failed server left behind.
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function hasTable(data: ServerData, table: string): Promise<boolean> {
  const db = data.open();
  try {
    return (await db.introspection.getTables()).some((found) => found.name === table);
  } finally {
    await db.destroy();
  }
}

describe('the migration lock', () => {
  let data: ServerData;
  beforeEach(async () => {
    data = await createServerData();
  });
  afterEach(() => data.remove());

  it('keeps starting processes waiting while another holds it, then lets them migrate once, in turn', async () => {
    const lock = await holdMigrationLock(data);
    try {
      const settled = Promise.allSettled([startServer(lock.data), startServer(lock.data)]);
      try {
        const early = await Promise.race([settled.then(() => 'started'), sleep(4000).then(() => 'waiting')]);
        expect(early).toBe('waiting');
        // Neither has migrated anything meanwhile.
        expect(await hasTable(lock.data, 'users')).toBe(false);
      } finally {
        await lock.release();
      }
      const results = await settled;
      const running = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
        expect(await recordedMigrations(lock.data)).toEqual(migrationNames());
        // Both serve the one schema: a user made through one posts through the other.
        const [first, second] = running as [ServerProcess, ServerProcess];
        const user = await signUpAndIn(first.url, { userName: `both${process.pid}` });
        const post = await callApi(second.url, 'POST', '/api/createpost', {
          json: { title: 'Hello', desc: 'From the other' },
          token: user.token,
        });
        expect(post.status).toBe(201);
      } finally {
        for (const server of running) await server.stop();
      }
    } finally {
      await lock.remove();
    }
  });
});

describe('migrating beside other databases on one PostgreSQL server', () => {
  const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

  // Kysely's own check for its bookkeeping tables reads every schema of the database and asks
  // has_schema_privilege() of each, so a schema another database drops at that moment failed our
  // start ("schema … does not exist": a CI run lost a suite to it). The check reads our schema only.
  onPostgres('looks only at its own schema while migrating', async () => {
    const statements: string[] = [];
    const app = await startTestApp({}, (statement) => statements.push(statement));
    try {
      expect(statements.some((statement) => statement.includes('kysely_migration'))).toBe(true);
      expect(statements.filter((statement) => statement.includes('has_schema_privilege'))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
