import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { track } from './child-registry';

/** src/ and dist/ sit at the same depth, so this holds for the sources (ts-jest) and the build. */
export const REPO_ROOT = resolve(__dirname, '../../..');
export const WEB_DIST = join(REPO_ROOT, 'frontend/dist');

/**
 * backend/dist/main.js, or the main.js the variable names: another build (a copy that a concurrent
 * `nest build` cannot remove halfway through a run, or an older commit's for a before/after table).
 */
export function serverMain(overrideVariable: string): string {
  const override = process.env[overrideVariable];
  return override ? resolve(override) : join(REPO_ROOT, 'backend/dist/main.js');
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

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LaunchOptions {
  /** The main.js to run (serverMain()). */
  main: string;
  /** A fixed port (a balancer's config names it); a free loopback port by default. */
  port?: number;
  /** The server's whole environment; PORT and HOST (loopback) are set on top. */
  env: NodeJS.ProcessEnv;
  /** Pass the data folder: in the repository, main.ts would read a developer's ./.env. */
  cwd?: string;
  /** Node flags before main.js (the heap cap of decision 017, a --require for a profiler). */
  nodeArgs?: string[];
  /**
   * 'capture': kept in memory for the test to read. A file: the server writes straight into it, as
   * `node main.js >> server.log` would; relayed through this process, every line would also cost a
   * load generator a read and a write.
   */
  output: 'capture' | { file: string; append?: boolean };
  /** How long /api/health may take to answer; start-up runs the migrations on a shared machine. */
  startTimeoutMs: number;
  /** How long stop() waits for the graceful shutdown before SIGKILL; 10 s by default. */
  stopGraceMs?: number;
  /** For messages: "app2", "The server". */
  name?: string;
}

/** The built server in a process of its own, answering /api/health. */
export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to stdout so far (its JSON log lines); '' when it writes to a file. */
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited, however it ended, and its output is all read. */
  exited: Promise<ServerExit>;
  /** SIGTERM (the graceful shutdown), then SIGKILL when it has not exited within stopGraceMs. */
  stop(): Promise<ServerExit>;
  /** SIGKILL: no graceful shutdown, as when a machine or a container dies. */
  kill(): Promise<ServerExit>;
}

/** Starts `node main.js` and resolves once /api/health answers 200; kills it if it never does. */
export async function launchServer(options: LaunchOptions): Promise<ServerProcess> {
  if (!existsSync(options.main)) throw new Error(`${options.main} is missing: build the backend first (npm run build)`);
  const name = options.name ?? 'The server';
  const port = options.port ?? (await freePort());
  const logFile = options.output === 'capture' ? null : options.output.file;
  const fd = options.output === 'capture' ? null : openSync(options.output.file, options.output.append ? 'a' : 'w');
  const child = track(
    spawn(process.execPath, [...(options.nodeArgs ?? []), options.main], {
      cwd: options.cwd,
      env: { ...options.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: fd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
    }),
  );
  // The child holds its own copy of the descriptor.
  if (fd !== null) closeSync(fd);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close', not 'exit': by then every byte the process wrote to stdout has been read.
  const exited = new Promise<ServerExit>((resolveExit) =>
    child.once('close', (code, signal) => resolveExit({ code, signal })),
  );
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const kill = async (): Promise<ServerExit> => {
    if (running()) child.kill('SIGKILL');
    return exited;
  };
  const output = (): string => (logFile ? `${logFile}:\n${logTail(logFile, 25)}` : `${stderr}${stdout}`);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, options.startTimeoutMs);
  } catch (error) {
    await kill();
    throw new Error(`${name} ${error instanceof Error ? error.message : String(error)}; its output: ${output()}`);
  }
  if (child.pid === undefined) throw new Error(`${name} has no pid`);
  return {
    url,
    port,
    pid: child.pid,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stop() {
      if (running()) {
        const timer = setTimeout(() => child.kill('SIGKILL'), options.stopGraceMs ?? 10_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
    kill,
  };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`stopped while starting (${child.signalCode ?? `exit code ${String(child.exitCode)}`})`);
    }
    try {
      // Bounded by the deadline, not shorter: on a loaded machine a first answer may take seconds.
      const reply = await fetch(`${url}/api/health`, {
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
      if (reply.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`did not answer ${url}/api/health within ${timeoutMs / 1000} s`);
}

/** The last lines of a log file, read from its end (a bench's log runs to gigabytes). */
export function logTail(file: string, lines = 20): string {
  if (!existsSync(file)) return '(no log)';
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
