import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild, track } from './child-registry';
import { REPO_ROOT } from './data-set';

/** BENCH_SERVER_MAIN runs another build (e.g. an older commit's, for a before/after table). */
const MAIN = process.env.BENCH_SERVER_MAIN ?? join(REPO_ROOT, 'backend/dist/main.js');
const HEALTH_TIMEOUT_MS = 120_000;
/** The node flags every launcher we ship uses (`npm start`, the Dockerfile, the systemd unit): ADR 017. */
const PRODUCTION_NODE_FLAGS = ['--max-old-space-size=192'];

export interface AppServer {
  baseUrl: string;
  pid: number;
  child: ChildProcess;
  logFile: string;
  /** How often `text` occurs in the server's log so far (read in chunks: a bench writes GBs). */
  countInLog(text: string): number;
  /** The last lines of the server's log (stdout and stderr). */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

export interface AppServerOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** Extra node flags, e.g. a --require for the CPU profiler. */
  nodeArgs?: string[];
  extraEnv?: NodeJS.ProcessEnv;
}

/** The production server exactly as `npm start` runs it, on a free loopback port. */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the backend first (npm run build -w backend)`);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.extraEnv,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    // The load comes from one address, far over any limit: it measures the server, not the limits.
    RATE_LIMITS: 'off',
  };
  if (options.databaseUrl) {
    env.DATABASE_URL = options.databaseUrl;
    // The server requires one with PostgreSQL; the bench signs in through the API, so any will do.
    env.JWT_SECRET ??= 'bench-secret-that-is-at-least-32-characters';
  } else delete env.DATABASE_URL;

  const logFile = join(options.dataDir, 'server.log');
  // The server writes its log straight into the file, as `node main.js >> server.log` would: relayed
  // through a pipe, every line would also cost this process (the load generator) a read and a write,
  // and the load it generates would drop with the server's log volume.
  const log = openSync(logFile, 'w');
  // cwd is the data folder so a developer's ./.env in the repository cannot change what is measured.
  const child = track(
    spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, ...(options.nodeArgs ?? []), MAIN], {
      cwd: options.dataDir,
      env,
      stdio: ['ignore', log, log],
    }),
  );
  closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const countInLog = (text: string): number => countInFile(logFile, text);
  const logTail = (lines = 20): string => tailOfFile(logFile, lines);

  try {
    await waitForHealth(baseUrl, child);
  } catch (error) {
    await stopChild(child);
    const tail = logTail();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nServer log (${logFile}):\n${tail}`);
  }
  if (child.pid === undefined) throw new Error('The server has no pid');
  return {
    baseUrl,
    pid: child.pid,
    child,
    logFile,
    countInLog,
    logTail,
    stop: async () => {
      await stopChild(child, 10_000);
    },
  };
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  const state: { exited: string | null } = { exited: null };
  child.once('exit', (code, signal) => (state.exited = signal ?? `exit code ${String(code)}`));
  while (Date.now() < deadline) {
    if (state.exited !== null) throw new Error(`The server stopped while starting (${state.exited})`);
    try {
      const reply = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (reply.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`The server did not answer ${baseUrl}/api/health within ${HEALTH_TIMEOUT_MS / 1000} s`);
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolvePort(port) : reject(new Error('No free port'))));
    });
  });
}

const CHUNK_BYTES = 1 << 20;

function countInFile(file: string, text: string): number {
  if (!existsSync(file)) return 0;
  const needle = Buffer.from(text);
  const fd = openSync(file, 'r');
  try {
    let count = 0;
    let carry = Buffer.alloc(0);
    const chunk = Buffer.alloc(CHUNK_BYTES);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const window = Buffer.concat([carry, chunk.subarray(0, read)]);
      for (let at = window.indexOf(needle); at !== -1; at = window.indexOf(needle, at + needle.length)) count += 1;
      // Keep a needle's length minus one so a match across two chunks is found, never twice.
      carry = Buffer.from(window.subarray(Math.max(0, window.length - (needle.length - 1))));
    }
    return count;
  } finally {
    closeSync(fd);
  }
}

function tailOfFile(file: string, lines: number): string {
  if (!existsSync(file)) return '';
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8').split('\n').slice(-lines).join('\n');
  } finally {
    closeSync(fd);
  }
}
