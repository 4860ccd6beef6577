import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@techit/testkit/server-launcher';
import { Redis } from 'ioredis';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/**
 * A real redis-server (Debian's) of this test's own on a free loopback port, in memory only. It
 * can be paused (SIGSTOP: connected but silent, the worst case for a client), killed and started
 * again on the same port.
 */
export interface RedisServer {
  url: string;
  /** A client of the test's own, for looking at the keys. */
  client: Redis;
  kill(): Promise<void>;
  start(): Promise<void>;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'techit-redis-'));
  let child: ChildProcess | null = null;
  let output = '';
  const url = `redis://127.0.0.1:${port}`;

  const start = async (): Promise<void> => {
    child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForPing(url, () => output);
  };
  const kill = async (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  // The client reconnects by itself once the server is back; its errors meanwhile are expected.
  client.on('error', () => undefined);
  await client.connect();
  return {
    url,
    client,
    kill,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async stop() {
      client.disconnect();
      child?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPing(url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // Not listening yet.
    } finally {
      probe.disconnect();
    }
    if (Date.now() > deadline) throw new Error(`redis-server did not answer within 20 s:\n${output()}`);
    await sleep(50);
  }
}
