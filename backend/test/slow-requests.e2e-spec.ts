import { type AddressInfo, connect, type Socket } from 'node:net';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Slowloris and its cousins, over real sockets on a loopback port: clients that hold a connection
 * open without ever finishing a request. The limits are set small here (production: 10 s for the
 * headers, 60 s for a whole request); the bounds asserted leave room for a loaded machine.
 */
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 3000;
const KEEP_ALIVE_TIMEOUT_MS = 1000;
/** How late a cut may come on a busy machine (Node checks the limits in a periodic sweep). */
const SLACK_MS = 4000;

interface Connection {
  socket: Socket;
  /** Resolves when the server closes the connection: after how long, and what it sent first. */
  closed: Promise<{ afterMs: number; reply: string }>;
}

async function open(port: number): Promise<Connection> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const start = Date.now();
  let reply = '';
  socket.on('data', (chunk: Buffer) => (reply += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<{ afterMs: number; reply: string }>((resolve) =>
    socket.once('close', () => resolve({ afterMs: Date.now() - start, reply })),
  );
  return { socket, closed };
}

/** Writes `text`, then one more byte every `everyMs` for as long as the socket is open. */
function trickle(socket: Socket, text: string, everyMs: number, byte = 'a'): void {
  socket.write(text);
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) clearInterval(timer);
    else socket.write(byte);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

function expectTimeoutReply(reply: string): void {
  expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({
    error: 'The request took too long to arrive',
  });
}

function portOf(t: TestApp): number {
  return (t.app.getHttpServer().address() as AddressInfo).port;
}

describe('Slow requests (slowloris)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
    });
    await t.app.listen(0, '127.0.0.1');
    port = portOf(t);
  });
  afterAll(() => t.close());

  it('cuts a client that sends its headers one byte at a time, with 408, once HEADERS_TIMEOUT_MS is up', async () => {
    const connection = await open(port);
    // A byte every 50 ms: never idle, but the headers never end.
    trickle(connection.socket, 'GET /api/health HTTP/1.1\r\nHost: techit\r\nX-Slow: ', 50);
    const { afterMs, reply } = await connection.closed;
    expectTimeoutReply(reply);
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
  });

  it('cuts a connection that sends nothing at all', async () => {
    const connection = await open(port);
    const { afterMs, reply } = await connection.closed;
    expectTimeoutReply(reply);
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
  });

  it('cuts a request whose body never finishes, with 408, once REQUEST_TIMEOUT_MS is up', async () => {
    const connection = await open(port);
    const head =
      'POST /api/signup HTTP/1.1\r\nHost: techit\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    // The headers complete at once; the promised 1000-byte body then comes a space every 100 ms.
    trickle(connection.socket, `${head}{"userName":"slow_body",`, 100, ' ');
    const { afterMs, reply } = await connection.closed;
    expectTimeoutReply(reply);
    expect(afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(afterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    const user = await t.db.selectFrom('users').select('id').where('user_name', '=', 'slow_body').executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const connection = await open(port);
    connection.socket.write('GET /api/health HTTP/1.1\r\nHost: techit\r\n\r\n');
    const { afterMs, reply } = await connection.closed;
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(afterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 100);
    expect(afterMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + SLACK_MS);
  });

  it('lets a slow but steady client finish within the limits', async () => {
    const connection = await open(port);
    const body = JSON.stringify({ userName: 'steady', email: 'steady@example.com', password: 'correct horse battery' });
    connection.socket.write(
      `POST /api/signup HTTP/1.1\r\nHost: techit\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // The body in five pieces over about half a second: slow, yet well inside REQUEST_TIMEOUT_MS.
    for (let at = 0; at < body.length; at += Math.ceil(body.length / 5)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      connection.socket.write(body.slice(at, at + Math.ceil(body.length / 5)));
    }
    const { reply } = await connection.closed;
    expect(reply).toMatch(/^HTTP\/1\.1 201 /);
    const user = await t.db.selectFrom('users').select('id').where('user_name', '=', 'steady').executeTakeFirst();
    expect(user).toBeDefined();
  });
});

describe('Slow requests while others are served', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // Limits long enough that the slow connections are surely all still held during the test.
    t = await startTestApp({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '20000' });
    await t.app.listen(0, '127.0.0.1');
    port = portOf(t);
  });
  afterAll(() => t.close());

  it('keeps answering other clients while 100 slow connections are held open', async () => {
    const slow = await Promise.all(Array.from({ length: 100 }, () => open(port)));
    slow.forEach(({ socket }, index) =>
      trickle(socket, `GET /api/posts?page=${index} HTTP/1.1\r\nHost: techit\r\nX-Slow: `, 200),
    );
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, () => t.http.get('/api/health')));
      expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(200));
      const signUp = await t.http
        .post('/api/signup')
        .send({ userName: 'meanwhile', email: 'meanwhile@example.com', password: 'correct horse battery' });
      expect(signUp.status).toBe(201);
      // They were served while every slow connection was still open, not after those were cut.
      expect(slow.filter(({ socket }) => socket.destroyed)).toHaveLength(0);
    } finally {
      slow.forEach(({ socket }) => socket.destroy());
    }
  });
});
