import { createHmac } from 'node:crypto';
import { callApi } from '@techit/testkit/api-client';
import type { ServerProcess } from '@techit/testkit/server-launcher';
import { JWT_SECRET } from '../src/config/config.module';
import { createUser } from './support/factories';
import { createServerData, type ServerData, startServer } from './support/server-process';
import { startTestAppOn, type TestApp } from './support/test-app';

/**
 * Without JWT_SECRET the secret is generated once per database and kept in it, so instances that
 * share a database (PostgreSQL behind a load balancer, as in the README) accept each other's
 * tokens with no set-up. See docs/decisions/021-jwt-secret-kept-in-the-database.md.
 */

jest.setTimeout(120_000);

const NO_SECRET = { JWT_SECRET: '' };

async function storedSecrets(data: ServerData): Promise<number> {
  const db = data.open();
  try {
    return (await db.selectFrom('app_settings').select('key').where('key', '=', 'jwt_secret').execute()).length;
  } finally {
    await db.destroy();
  }
}

async function storedSecret(data: ServerData): Promise<string | undefined> {
  const db = data.open();
  try {
    return (await db.selectFrom('app_settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirst())
      ?.value;
  } finally {
    await db.destroy();
  }
}

function signedWith(token: string, secret: string): boolean {
  const [header, payload, signature] = token.split('.');
  return createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url') === signature;
}

describe('the JWT secret without JWT_SECRET', () => {
  let data: ServerData;
  const instances: TestApp[] = [];
  let server: ServerProcess | null = null;
  beforeEach(async () => {
    data = await createServerData();
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
    for (const instance of instances.splice(0)) await instance.close();
    await data.remove();
  });

  it('is generated once and shared: two instances starting together sign with the one stored secret', async () => {
    instances.push(...(await Promise.all([startTestAppOn(data, NO_SECRET), startTestAppOn(data, NO_SECRET)])));
    const [a, b] = instances as [TestApp, TestApp];
    // Compared directly: in one process passport keeps one JWT strategy (the last started app's),
    // so a token passing from one in-process app to the other proves little; the next test does
    // that across processes.
    const stored = await storedSecret(data);
    expect(stored?.length).toBeGreaterThanOrEqual(32);
    expect([a.app.get<string>(JWT_SECRET), b.app.get<string>(JWT_SECRET)]).toEqual([stored, stored]);
    const user = await createUser(a);
    expect(signedWith(user.token, stored!)).toBe(true);
    expect(await storedSecrets(data)).toBe(1);
  });

  it('lets the server started as the README says (npm start, no JWT_SECRET) accept a token from another instance', async () => {
    instances.push(await startTestAppOn(data, NO_SECRET));
    server = await startServer(data, NO_SECRET);
    const user = await createUser(instances[0]);
    const post = await callApi(server.url, 'POST', '/api/createpost', {
      json: { title: 'Hello', desc: 'Through the other instance' },
      token: user.token,
    });
    expect(post.status).toBe(201);
    expect(await storedSecrets(data)).toBe(1);
  });

  it('is not used when JWT_SECRET is set: tokens are signed with JWT_SECRET', async () => {
    const secret = 'an-operator-chosen-secret-of-40-characters';
    instances.push(await startTestAppOn(data, { JWT_SECRET: secret }));
    const user = await createUser(instances[0]);
    expect(signedWith(user.token, secret)).toBe(true);
    expect(await storedSecrets(data)).toBe(0);
  });
});
