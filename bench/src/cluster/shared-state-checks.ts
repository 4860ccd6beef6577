import { text } from '@techit/testkit/api-client';
import { call, CheckFailure, expectStatus, expectThat } from './api-call';
import { gradientPng } from './png-image';

export interface CheckOutcome {
  passed: boolean;
  /** What was seen, for the report; on failure, what went wrong. */
  detail: string;
}

/**
 * The per-account sign-in limit (RATE_LIMIT_SIGN_IN_USER_NAME, `limit` a window) counted in Redis:
 * `limit` failed sign-ins spread round-robin over the instances, none of which sees `limit` of them
 * alone, and the next one is refused with 429, then on every instance, even with the right
 * password; another account still signs in (the limit is the account's, not the address's).
 */
export async function checkSharedRateLimit(
  balancerUrl: string,
  instanceUrls: string[],
  tag: string,
  limit: number,
): Promise<CheckOutcome> {
  return outcome(async () => {
    const password = `cluster-${tag}-password`;
    const victim = `victim_${tag}`;
    const bystander = `bystander_${tag}`;
    for (const userName of [victim, bystander]) {
      const reply = await call(balancerUrl, 'POST', '/api/signup', {
        json: { userName, email: `${userName}@example.com`, password },
      });
      expectStatus(reply, 201, `sign-up of ${userName}`);
    }
    const perInstance: Record<string, number> = {};
    for (let attempt = 1; attempt <= limit; attempt += 1) {
      const reply = await call(balancerUrl, 'POST', '/api/signin', {
        json: { userName: victim, password: 'wrong password' },
      });
      expectStatus(reply, 401, `failed sign-in ${attempt} of ${limit}`);
      perInstance[reply.instance] = (perInstance[reply.instance] ?? 0) + 1;
    }
    const most = Math.max(...Object.values(perInstance));
    expectThat(
      Object.keys(perInstance).length > 1 && most < limit,
      `the ${limit} attempts did not spread over the instances: ${JSON.stringify(perInstance)}`,
    );
    const refused = await call(balancerUrl, 'POST', '/api/signin', { json: { userName: victim, password } });
    expectStatus(refused, 429, `sign-in ${limit + 1}, after ${limit} failures spread over the instances`);
    const message = text(refused.body, 'error');
    for (const url of instanceUrls) {
      const direct = await call(url, 'POST', '/api/signin', { json: { userName: victim, password } });
      expectStatus(direct, 429, `the locked account signing in on ${url} directly`);
    }
    const other = await call(balancerUrl, 'POST', '/api/signin', { json: { userName: bystander, password } });
    expectStatus(other, 200, 'another account signing in meanwhile');
    const spread = Object.values(perInstance).join('+');
    return `${limit} failed sign-ins (${spread} per instance) → the next is 429 through the balancer and on all ${instanceUrls.length} instances directly ("${message}"); another account still signs in`;
  });
}

/**
 * One image uploaded through the balancer is served, byte for byte the same, by every instance
 * asked directly: the instances share the uploads storage.
 */
export async function checkSharedImage(balancerUrl: string, instanceUrls: string[]): Promise<CheckOutcome> {
  return outcome(async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(gradientPng(320, 200, 99))], { type: 'image/png' }), 'shared.png');
    const uploaded = await call(balancerUrl, 'POST', '/api/upload', { form });
    expectStatus(uploaded, 201, 'upload through the balancer');
    const url = text(uploaded.body, 'url');
    const served: Buffer[] = [];
    for (const base of instanceUrls) {
      const reply = await fetch(`${base}${url}`, { signal: AbortSignal.timeout(30_000) });
      expectThat(reply.status === 200, `${base}${url} answered ${reply.status}`);
      const type = reply.headers.get('content-type') ?? '';
      expectThat(type.startsWith('image/webp'), `${base}${url} is ${type}, not image/webp`);
      served.push(Buffer.from(await reply.arrayBuffer()));
    }
    const first = served[0];
    expectThat(first.length > 0, 'the image is empty');
    expectThat(
      served.every((bytes) => bytes.equals(first)),
      'the instances serve different bytes for the same image',
    );
    const others = instanceUrls.filter((base) => !base.endsWith(uploaded.instance)).length;
    expectThat(others === instanceUrls.length - 1, `the upload was answered by ${uploaded.instance || 'no instance'}`);
    return `${url} (${first.length} bytes) stored through ${uploaded.instance}, served identically by all ${instanceUrls.length} instances directly`;
  });
}

/** Runs one check: its detail line when it passes, what went wrong when it throws. */
export async function outcome(run: () => Promise<string>): Promise<CheckOutcome> {
  try {
    return { passed: true, detail: await run() };
  } catch (error) {
    const message = error instanceof CheckFailure || error instanceof Error ? error.message : String(error);
    return { passed: false, detail: message };
  }
}
