import { join } from 'node:path';
import { createDataSandbox } from '@techit/testkit/database-sandbox';
import { launchServer, type ServerProcess, serverMain } from '@techit/testkit/server-launcher';
import { createDatabase, SQLITE_FILE } from '../../src/database/create-database';
import type { Db, Dialect } from '../../src/database/database.types';

// TEST_SERVER_MAIN runs another build (a copy of dist/ that a concurrent `nest build` cannot remove).
const MAIN = serverMain('TEST_SERVER_MAIN');

/**
 * Where a spawned server keeps its data (a fresh DATA_DIR, and a fresh PostgreSQL schema when
 * TEST_DATABASE_URL is set), with what the suites look at behind the server's back.
 */
export interface ServerData {
  dataDir: string;
  databaseUrl: string | null;
  dialect: Dialect;
  /** The SQLite file (whether or not the dialect uses it). */
  sqliteFile: string;
  /** Opens the same database the server uses (beside it, or after it stopped); destroy() it after. */
  open(): Db;
  remove(): Promise<void>;
}

export async function createServerData(): Promise<ServerData> {
  const sandbox = await createDataSandbox('server');
  const { dataDir, databaseUrl } = sandbox;
  return {
    dataDir,
    databaseUrl,
    dialect: sandbox.dialect,
    sqliteFile: join(dataDir, SQLITE_FILE),
    open: () => createDatabase({ databaseUrl, dataDir }).db,
    remove: () => sandbox.remove(),
  };
}

/** Starts the built server (backend/dist/main.js) on `data`, on a free loopback port, once /api/health answers. */
export function startServer(data: ServerData, settings: Record<string, string> = {}): Promise<ServerProcess> {
  return launchServer({
    main: MAIN,
    // Not the repository: main.ts would read a developer's ./.env.
    cwd: data.dataDir,
    env: {
      ...process.env,
      DATA_DIR: data.dataDir,
      DATABASE_URL: data.databaseUrl ?? '',
      JWT_SECRET: 'server-process-secret-at-least-32-characters',
      WEB_DIST_DIR: join(data.dataDir, 'no-web-build'),
      LOG_LEVEL: 'warn',
      READ_CACHE_TTL_MS: '0',
      // These suites measure durability, not abuse limits (rate-limits.e2e-spec does).
      RATE_LIMITS: 'off',
      ...settings,
    },
    output: 'capture',
    // Generous: several engineers share two cores, and start-up runs the migrations.
    startTimeoutMs: 60_000,
    stopGraceMs: 20_000,
  });
}
