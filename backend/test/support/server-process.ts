import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase, SQLITE_FILE } from '../../src/database/create-database';
import type { Db, Dialect } from '../../src/database/database.types';
import { createPostgresDatabase } from './test-app';

// TEST_SERVER_MAIN runs another build (a copy of dist/ that a concurrent `nest build` cannot remove).
const MAIN = resolve(process.env.TEST_SERVER_MAIN ?? resolve(__dirname, '../../dist/main.js'));

/**
 * Where a spawned server keeps its data: a fresh DATA_DIR (SQLite file, uploads) and, when
 * TEST_DATABASE_URL is set, a fresh PostgreSQL schema. It outlives a server, so a test can kill
 * one and start the next on the same data.
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
  const dataDir = mkdtempSync(join(tmpdir(), 'techit-server-'));
  const postgres = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const databaseUrl = postgres?.url ?? null;
  return {
    dataDir,
    databaseUrl,
    dialect: postgres ? 'postgres' : 'sqlite',
    sqliteFile: join(dataDir, SQLITE_FILE),
    open: () => createDatabase({ databaseUrl, dataDir }).db,
    async remove() {
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The built server (backend/dist/main.js) in a process of its own, on a free loopback port. */
export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the server wrote to stdout so far (its JSON log lines). */
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited, however it ended, and its output is all read. */
  exited: Promise<ServerExit>;
  /** SIGTERM, then waits for the exit (SIGKILL after 20 s). */
  stop(): Promise<ServerExit>;
}

/** Starts the built server on `data` and waits until /api/health answers. */
export async function startServer(data: ServerData, settings: Record<string, string> = {}): Promise<ServerProcess> {
  if (!existsSync(MAIN)) {
    throw new Error(
      `${MAIN} is missing: these tests run the built server. Run \`npm run build -w contract && npm run build -w backend\` first (\`npm test\` does).`,
    );
  }
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    // Not the repository: main.ts would read a developer's ./.env.
    cwd: data.dataDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close', not 'exit': by then every byte the process wrote to stdout has been read.
  const exited = new Promise<ServerExit>((resolveExit) =>
    child.once('close', (code, signal) => resolveExit({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, () => `${stderr}${stdout}`);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    port,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  // Generous: eight engineers share two cores, and start-up runs the migrations.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited (${child.exitCode ?? child.signalCode}): ${output()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((wake) => setTimeout(wake, 100));
  }
  throw new Error(`The server did not answer /api/health in 60 s: ${output()}`);
}

/** Signs a user up and in against a spawned server. */
export async function signUpAndIn(
  url: string,
  userName: string,
  password = 'correct horse battery',
): Promise<{ id: string; userName: string; email: string; password: string; token: string }> {
  const email = `${userName.toLowerCase()}@example.com`;
  const signUp = await postJson(url, '/api/signup', { userName, email, password });
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body)}`);
  const signIn = await postJson(url, '/api/signin', { userName, password });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  const body = signIn.body as { token: string; user: { _id: string } };
  return { id: body.user._id, userName, email, password, token: body.token };
}

/** One JSON request; the body is parsed when there is one. */
export async function sendJson(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, headers: response.headers };
}

export function postJson(url: string, path: string, body: unknown, token?: string) {
  return sendJson(url, 'POST', path, body, token);
}
