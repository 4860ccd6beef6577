import { existsSync, statSync } from 'node:fs';
import { Agent, type ClientRequest, request } from 'node:http';
import { connect } from 'node:net';
import { signUpAndIn } from '@techit/testkit/api-client';
import type { ServerProcess } from '@techit/testkit/server-launcher';
import { createServerData, type ServerData, startServer } from './support/server-process';

/**
 * The built server in a process of its own, stopped by a signal the way a container runtime or
 * a terminal stops it, with a request still arriving.
 */
jest.setTimeout(120_000);

let data: ServerData;
let server: ServerProcess | undefined;

beforeEach(async () => {
  data = await createServerData();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await data.remove();
});

describe('Graceful shutdown', () => {
  it('on SIGTERM refuses new connections, finishes the request in flight, closes the database and exits 0', async () => {
    server = await startServer(data, { LOG_LEVEL: 'info' });
    const user = await signUpAndIn(server.url, { userName: `grace${process.pid}` });
    // A browser or a proxy keeps idle connections open: they must not hold the shutdown up.
    const idle = await openIdleKeepAliveConnection(server.port);
    const title = `Sent slowly ${Date.now()}`;
    const slow = await startSlowRequest(
      server.port,
      '/api/createpost',
      { title, desc: 'Arrives in two parts' },
      user.token,
    );

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await expectConnectionsRefused(server.port);
    await withTimeout(idle.closed, 5_000, 'the idle keep-alive connection was not closed');
    expect(slow.isAnswered()).toBe(false);

    slow.sendTheRest();
    const reply = await slow.reply;
    expect(reply.status).toBe(201);
    const postId = (JSON.parse(reply.body) as { post: { _id: string } }).post._id;

    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    const logLines = server.stdout().trim().split('\n');
    expect(logLines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('Stopped');

    if (data.dialect === 'sqlite') {
      // A clean close checkpoints the write-ahead log into the file and removes it.
      const wal = `${data.sqliteFile}-wal`;
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    }
    const db = data.open();
    try {
      const row = await db.selectFrom('posts').select(['title']).where('id', '=', postId).executeTakeFirst();
      expect(row?.title).toBe(title);
    } finally {
      await db.destroy();
    }
  });

  it('on SIGINT waits at most 10 s for a request that never finishes, then exits 0', async () => {
    // The slow-request timeout well above the grace period: only the shutdown may end this one.
    server = await startServer(data, { REQUEST_TIMEOUT_MS: '60000' });
    const user = await signUpAndIn(server.url, { userName: `stall${process.pid}` });
    const stalled = await startSlowRequest(
      server.port,
      '/api/createpost',
      { title: 'Never', desc: 'finished' },
      user.token,
    );

    const signalledAt = Date.now();
    server.child.kill('SIGINT');
    const exit = await withTimeout(server.exited, 20_000, 'the server did not exit');
    const waited = Date.now() - signalledAt;

    expect(exit).toEqual({ code: 0, signal: null });
    // 10 s of grace, then the cut and the close (slow on a loaded machine); never the 72 s keep-alive.
    expect(waited).toBeGreaterThanOrEqual(9_000);
    expect(waited).toBeLessThan(16_000);
    const reply = await stalled.reply.catch(() => null);
    expect(reply === null || reply.status >= 400).toBe(true);
    const db = data.open();
    try {
      expect(await db.selectFrom('posts').select('id').execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

/** A keep-alive connection that made one request and now sits idle in its agent's pool. */
async function openIdleKeepAliveConnection(port: number): Promise<{ closed: Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolveOpen, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/health', agent }, (response) => {
      response.resume();
      response.on('end', () => resolveOpen({ closed }));
    });
    let closed!: Promise<void>;
    req.on('socket', (socket) => {
      closed = new Promise((resolveClosed) => socket.once('close', () => resolveClosed()));
    });
    req.on('error', reject);
    req.end();
  });
}

interface SlowRequest {
  reply: Promise<{ status: number; body: string }>;
  isAnswered(): boolean;
  sendTheRest(): void;
}

/**
 * A JSON request whose body arrives in two parts. It resolves once the server has read the
 * headers (it answers `Expect: 100-continue` only then) and holds half of the body, so the request
 * is in flight on the server when the test signals it.
 */
function startSlowRequest(port: number, path: string, body: unknown, token: string): Promise<SlowRequest> {
  const json = Buffer.from(JSON.stringify(body));
  const half = Math.floor(json.length / 2);
  let answered = false;
  let req!: ClientRequest;
  const reply = new Promise<{ status: number; body: string }>((resolveReply, rejectReply) => {
    req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path,
      agent: false,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': json.length,
        Authorization: `Bearer ${token}`,
        Expect: '100-continue',
      },
    });
    req.on('response', (response) => {
      answered = true;
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolveReply({ status: response.statusCode ?? 0, body: text }));
      response.on('error', rejectReply);
    });
    req.on('error', (error) => {
      answered = true;
      rejectReply(error);
    });
  });
  reply.catch(() => undefined);
  return new Promise((resolveStarted, rejectStarted) => {
    req.once('continue', () => {
      req.write(json.subarray(0, half), () =>
        resolveStarted({
          reply,
          isAnswered: () => answered,
          sendTheRest: () => req.end(json.subarray(half)),
        }),
      );
    });
    reply.catch(rejectStarted);
    req.flushHeaders();
  });
}

/** Resolves once a new TCP connection to the port is refused (the listening socket is closed). */
async function expectConnectionsRefused(port: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const outcome = await new Promise<string>((resolveTry) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolveTry('accepted');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolveTry(error.code ?? 'error'));
    });
    if (outcome === 'ECONNREFUSED') return;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  throw new Error('new connections were still accepted 5 s after the signal');
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
