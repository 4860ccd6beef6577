import { type ApiReply as Reply, callApi, type CallOptions } from '@techit/testkit/api-client';

/** One reply from the API, with the instance nginx says answered it. */
export interface ApiReply extends Reply {
  /** The last address in X-Instance (the one that answered); '' when called without the balancer. */
  instance: string;
}

/** A request through the balancer or to one instance; a killed instance's requests give up after 30 s. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: Omit<CallOptions, 'timeoutMs'> = {},
): Promise<ApiReply> {
  const reply = await callApi(baseUrl, method, path, { ...options, timeoutMs: 30_000 });
  return { ...reply, instance: lastInstance(reply.headers.get('x-instance')) };
}

/** `$upstream_addr` lists every instance tried, comma-separated; the last one answered. */
export function lastInstance(header: string | string[] | null | undefined): string {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '');
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  return parts[parts.length - 1] ?? '';
}

/** How many instances nginx tried for one request (more than one: it retried). */
export function instancesTried(header: string | string[] | null | undefined): number {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '');
  return value.split(',').filter((part) => part.trim().length > 0).length;
}

/** A failed expectation of a step; the message says what was expected and what came back. */
export class CheckFailure extends Error {}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

export function expectStatus(reply: ApiReply, status: number, what: string): void {
  expectThat(reply.status === status, `${what}: expected ${status}, got ${reply.status} ${reply.text.slice(0, 200)}`);
}
