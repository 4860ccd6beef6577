import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createApp } from '../../src/app-factory';
import { type AppConfig, loadConfig } from '../../src/config/app-config';
import { DATABASE } from '../../src/database/database.tokens';
import type { Db, Dialect } from '../../src/database/database.types';

/**
 * A running app on a database of its own: a fresh SQLite file, or, when TEST_DATABASE_URL is set,
 * a fresh PostgreSQL database created on that server and dropped afterwards. Every suite runs
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

export async function startTestApp(settings: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'techit-test-'));
  const postgres = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...settings,
  });
  const app = await createApp(config);
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

async function createPostgresDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `techit_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Every row of every table, for asserting that a rejected request changed nothing. */
export async function snapshot(db: Db): Promise<string> {
  const tables = ['users', 'follows', 'posts', 'likes', 'comments', 'notices'] as const;
  const rows = await Promise.all(tables.map((table) => db.selectFrom(table).selectAll().execute()));
  const sorted = rows.map((list) => list.map((row) => JSON.stringify(row)).sort());
  return JSON.stringify(Object.fromEntries(tables.map((table, index) => [table, sorted[index]])));
}
