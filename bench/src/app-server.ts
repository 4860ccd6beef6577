import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { launchServer, logTail, serverMain } from '@techit/testkit/server-launcher';

/** BENCH_SERVER_MAIN runs another build (e.g. an older commit's, for a before/after table). */
const MAIN = serverMain('BENCH_SERVER_MAIN');
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
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.extraEnv,
    NODE_ENV: 'production',
    DATA_DIR: options.dataDir,
    // The load comes from one address, far over any limit: it measures the server, not the limits.
    RATE_LIMITS: 'off',
  };
  if (options.databaseUrl) {
    env.DATABASE_URL = options.databaseUrl;
    // The server requires one with PostgreSQL; the bench signs in through the API, so any will do.
    env.JWT_SECRET ??= 'bench-secret-that-is-at-least-32-characters';
  } else delete env.DATABASE_URL;

  // Straight into the file: relayed through this process (the load generator), the server's log
  // volume would lower the load it generates.
  const logFile = join(options.dataDir, 'server.log');
  const server = await launchServer({
    main: MAIN,
    nodeArgs: [...PRODUCTION_NODE_FLAGS, ...(options.nodeArgs ?? [])],
    // The data folder, so a developer's ./.env in the repository cannot change what is measured.
    cwd: options.dataDir,
    env,
    output: { file: logFile },
    startTimeoutMs: HEALTH_TIMEOUT_MS,
  });
  return {
    baseUrl: server.url,
    pid: server.pid,
    child: server.child,
    logFile,
    countInLog: (text) => countInFile(logFile, text),
    logTail: (lines = 20) => logTail(logFile, lines),
    stop: async () => {
      await server.stop();
    },
  };
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
