import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

const ROOT = resolve(__dirname, '../..');
// E2E_SERVER_MAIN: another server build's main.js (one that others' rebuilds of backend/dist cannot change mid-run).
const MAIN = process.env.E2E_SERVER_MAIN ? resolve(process.env.E2E_SERVER_MAIN) : join(ROOT, 'backend/dist/main.js');
// E2E_WEB_DIST_DIR: a build made elsewhere (vite build --outDir …), so a run needs no frontend/dist.
const WEB = process.env.E2E_WEB_DIST_DIR ? resolve(process.env.E2E_WEB_DIST_DIR) : join(ROOT, 'frontend/dist');

export interface AppServer {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The production server (backend/dist serving frontend/dist) on a free loopback port with a
 * database of its own: a fresh SQLite file, or a fresh schema on TEST_DATABASE_URL.
 */
export async function startAppServer(settings: Record<string, string> = {}): Promise<AppServer> {
  if (!existsSync(MAIN) || !existsSync(join(WEB, 'index.html'))) {
    throw new Error('Build first: npm run build (the browser tests run the built app)');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'techit-e2e-'));
  const port = await freePort();
  const schema = process.env.TEST_DATABASE_URL ? await createSchema(process.env.TEST_DATABASE_URL) : null;
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: WEB,
      JWT_SECRET: 'e2e-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'warn',
      // The journeys sign in and post far faster than a person; the limits have a suite of their own.
      RATE_LIMITS: 'off',
      ...(schema ? { DATABASE_URL: schema.url } : {}),
      ...settings,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    dataDir,
    async close() {
      await stop(child);
      if (schema) await schema.drop();
      rmSync(dataDir, { recursive: true, force: true });
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

async function waitForHealth(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}): ${stderr()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The server did not become healthy in 20 s: ${stderr()}`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null) return resolveStop();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

async function createSchema(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `techit_e2e_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const run = async (statement: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${name}`);
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return { url: url.toString(), drop: () => run(`DROP SCHEMA IF EXISTS ${name} CASCADE`) };
}
