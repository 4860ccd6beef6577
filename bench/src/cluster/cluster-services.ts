import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild, track } from '@techit/testkit/child-registry';
import { runOnPostgres } from '@techit/testkit/database-sandbox';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const DEFAULT_POSTGRES_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

export interface ClusterDatabase {
  /** The fresh database's URL, for DATABASE_URL. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A database of this run's own on the PostgreSQL server that CLUSTER_DATABASE_URL (else
 * TEST_DATABASE_URL, else the local postgres/postgres) points at; dropped at the end.
 */
export async function createClusterDatabase(): Promise<ClusterDatabase> {
  const serverUrl = process.env.CLUSTER_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_POSTGRES_URL;
  const name = `techit_cluster_${randomBytes(4).toString('hex')}`;
  await runOnPostgres(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // FORCE: an instance killed a moment ago may still hold a connection the server has not noticed closed.
    drop: () => runOnPostgres(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
}

/** Debian's redis-server on a loopback port, in memory only (no RDB, no AOF). */
export async function startRedis(port: number, dir: string): Promise<RedisProcess> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(`${REDIS_SERVER} is missing: apt-get install redis-server (or set REDIS_SERVER)`);
  }
  const child = track(
    spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (!(await ping(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`redis-server did not answer PING:\n${output.slice(-2000)}`);
    }
    await sleep(100);
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child, 5000) };
}

/** PING over the wire: this workspace has no Redis client, and one command needs none. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolvePing) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolvePing(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/**
 * How many of `keys` exist in the Redis at `url` (EXISTS, over the wire as ping() above): the
 * cluster checks wait on the app's own-write marks this way, a state, not a time.
 */
export function redisExists(url: string, keys: string[]): Promise<number> {
  const { hostname, port } = new URL(url);
  const args = ['EXISTS', ...keys];
  const command = `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
  return new Promise((resolveCount, reject) => {
    const socket = connect(Number(port), hostname);
    let reply = '';
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(2000, () => fail(new Error(`Redis at ${url} did not answer EXISTS`)));
    socket.once('error', fail);
    socket.once('connect', () => socket.write(command));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (!reply.includes('\r\n')) return;
      socket.destroy();
      if (reply.startsWith(':')) resolveCount(Number(reply.slice(1, reply.indexOf('\r\n'))));
      else reject(new Error(`Redis answered EXISTS with ${reply.trim()}`));
    });
  });
}
