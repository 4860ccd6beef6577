import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createPostgresSchema } from '@techit/testkit/database-sandbox';
import { createApp } from '../../src/app-factory';
import { type AppConfig, loadConfig } from '../../src/config/app-config';
import type { QueryObserver } from '../../src/database/create-database';
import { DATABASE } from '../../src/database/database.tokens';
import type { Db, Dialect } from '../../src/database/database.types';

/**
 * A running app on a database of its own: a fresh SQLite file, or, when TEST_DATABASE_URL is set,
 * a fresh PostgreSQL schema created on that server (createPostgresSchema) and dropped afterwards. Every suite runs
 * unchanged on both (see .ci/run).
 */
export interface TestApp {
  app: NestFastifyApplication;
  http: TestAgent;
  db: Db;
  dialect: Dialect;
  config: AppConfig;
  close(): Promise<void>;
}

export const TEST_DIALECT: Dialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/** `onQuery` sees every SQL statement the app runs, with its bound values. */
export async function startTestApp(settings: Record<string, string> = {}, onQuery?: QueryObserver): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'techit-test-'));
  const postgres = process.env.TEST_DATABASE_URL ? await createPostgresSchema(process.env.TEST_DATABASE_URL) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    // Suites write through t.db behind the app's back; read-cache.e2e-spec turns it on.
    READ_CACHE_TTL_MS: '0',
    // Suites that measure other things would trip the limits; rate-limits.e2e-spec turns them on.
    RATE_LIMITS: 'off',
    // A sweep on a timer would race suites that count files; uploads-lifecycle.e2e-spec calls it.
    ORPHAN_SWEEP_INTERVAL_MS: '0',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...settings,
  });
  let app: NestFastifyApplication;
  try {
    app = await createApp(config, onQuery);
  } catch (error) {
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    http: request(app.getHttpServer()),
    db: app.get<Db>(DATABASE),
    dialect: postgres ? 'postgres' : 'sqlite',
    config,
    async close() {
      await app.close();
      if (postgres) await postgres.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another instance on data that outlives it (createServerData in server-process.ts): several of
 * them on one database are the instances behind a load balancer. close() stops this one only;
 * the data is removed by its owner.
 */
export function startTestAppOn(
  data: { dataDir: string; databaseUrl: string | null },
  settings: Record<string, string> = {},
  onQuery?: QueryObserver,
): Promise<TestApp> {
  return startTestApp(
    { DATA_DIR: data.dataDir, ...(data.databaseUrl ? { DATABASE_URL: data.databaseUrl } : {}), ...settings },
    onQuery,
  );
}

/** Every row of every table, for asserting that a rejected request changed nothing. */
export async function snapshot(db: Db): Promise<string> {
  const tables = [
    'users',
    'follows',
    'posts',
    'post_revisions',
    'likes',
    'bookmarks',
    'blocks',
    'mutes',
    'comments',
    'notices',
    'tags',
    'post_tags',
    'tag_prefs',
    'notifications',
    'notification_actors',
    'notification_settings',
    'stream_tickets',
    'reports',
    'moderation_actions',
    'password_resets',
  ] as const;
  const rows = await Promise.all(tables.map((table) => db.selectFrom(table).selectAll().execute()));
  const sorted = rows.map((list) => list.map((row) => JSON.stringify(row)).sort());
  return JSON.stringify(Object.fromEntries(tables.map((table, index) => [table, sorted[index]])));
}

/** Runs a request that must be rejected and asserts it left every table exactly as it was. */
export async function expectDatabaseUnchanged(db: Db, act: () => Promise<unknown>): Promise<void> {
  const before = await snapshot(db);
  await act();
  expect(await snapshot(db)).toBe(before);
}
