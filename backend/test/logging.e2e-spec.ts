import { callApi } from '@techit/testkit/api-client';
import type { ServerProcess } from '@techit/testkit/server-launcher';
import { createServerData, type ServerData, startServer } from './support/server-process';

/**
 * The built server's stdout, as a log collector reads it, while a user signs up, signs in, browses
 * with a token, mistypes a password and writes an email address into their bio.
 */
jest.setTimeout(120_000);

interface LogLine {
  level: string;
  msg?: string;
  reqId?: string;
  context?: string;
  method?: string;
  url?: string;
  route?: string;
  statusCode?: number;
  responseTime?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let data: ServerData;
let server: ServerProcess | undefined;

beforeAll(async () => {
  data = await createServerData();
});
afterAll(async () => {
  await server?.stop();
  await data.remove();
});

describe('Structured logs', () => {
  it('writes each request as one JSON line with its request id, and no password, token or email anywhere', async () => {
    const running = await startServer(data, { LOG_LEVEL: 'info' });
    server = running;
    const userName = `logged${process.pid}`;
    const password = 'Very-secret-passphrase-42';
    const wrongPassword = 'Wrong-passphrase-for-logs-99';
    const bioEmail = 'private.person@example.org';
    const seen: { requestId: string; status: number; path: string }[] = [];
    const send = async (method: string, path: string, body?: unknown, token?: string) => {
      const reply = await callApi(running.url, method, path, { json: body, token });
      seen.push({ requestId: reply.headers.get('x-request-id') ?? '', status: reply.status, path });
      return reply;
    };

    const email = `${userName}@example.com`;
    expect((await send('POST', '/api/signup', { userName, email, password })).status).toBe(201);
    const signIn = await send('POST', '/api/signin', { userName, password });
    expect(signIn.status).toBe(200);
    const user = signIn.body as { token: string; user: { _id: string } };
    const authenticated = await send(
      'GET',
      `/api/posts?feed=following&page=1&token=${user.token}&email=${encodeURIComponent(email)}`,
      undefined,
      user.token,
    );
    expect(authenticated.status).toBe(200);
    expect((await send('POST', '/api/signin', { userName, password: wrongPassword })).status).toBe(401);
    expect((await send('PUT', '/api/bio', { bio: `Write to ${bioEmail}` }, user.token)).status).toBe(200);
    expect((await send('GET', `/api/user/${user.user._id}`)).status).toBe(200);
    expect((await send('GET', '/api/no-such-route')).status).toBe(404);

    const given = await fetch(`${running.url}/api/health`, { headers: { 'X-Request-Id': 'trace-42_from-proxy' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42_from-proxy');
    const hostile = await fetch(`${running.url}/api/health`, {
      headers: { 'X-Request-Id': `{"level":"fatal"} forged ${'x'.repeat(80)}` },
    });
    const generated = hostile.headers.get('x-request-id') ?? '';
    expect(generated).toMatch(UUID);
    seen.push(
      { requestId: 'trace-42_from-proxy', status: given.status, path: '/api/health' },
      { requestId: generated, status: hostile.status, path: '/api/health' },
    );

    await running.stop();
    const output = running.stdout();
    const lines = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogLine);

    for (const { requestId, status, path } of seen) {
      expect(requestId).toMatch(/^[\w-]{1,64}$/);
      const requestLines = lines.filter((line) => line.reqId === requestId);
      expect(requestLines).toEqual([
        expect.objectContaining({ statusCode: status, url: expect.stringMatching(/^\/api\//) as unknown }),
      ]);
      expect(requestLines[0].url?.split('?')[0]).toBe(path.split('?')[0]);
      expect(typeof requestLines[0].responseTime).toBe('number');
    }
    const browse = lines.find((line) => line.route === '/api/posts');
    expect(browse?.url).toBe('/api/posts?feed=following&page=1&token=[redacted]&email=[redacted]');
    // 4xx are the caller's: no error-level line for them.
    expect(lines.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
    // Every line is about a request (it has the id) or an application message (it names its source).
    for (const line of lines) {
      const fromFastifyListen = line.msg?.startsWith('Server listening at') ?? false;
      expect(line.reqId !== undefined || line.context !== undefined || fromFastifyListen).toBe(true);
    }
    expect(lines.some((line) => line.context === 'TechIt' && /^Listening on /.test(line.msg ?? ''))).toBe(true);

    for (const secret of [password, wrongPassword, user.token, ...user.token.split('.'), email, bioEmail]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(encodeURIComponent(secret));
    }
  });
});
