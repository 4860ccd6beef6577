/** One reply from the API, with the instance nginx says answered it. */
export interface ApiReply {
  status: number;
  /** Parsed JSON, or null when the body is not JSON. */
  body: unknown;
  text: string;
  /** The last address in X-Instance (the one that answered); '' when called without the balancer. */
  instance: string;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiReply> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form;
  }
  const reply = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await reply.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (an image, nginx's own error page): the text is kept.
  }
  return {
    status: reply.status,
    body: parsed,
    text,
    instance: lastInstance(reply.headers.get('x-instance')),
    headers: reply.headers,
  };
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

/** A field of an untyped JSON value, or undefined. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

export function text(value: unknown, key: string): string {
  const found = field(value, key);
  return typeof found === 'string' ? found : '';
}

export function list(value: unknown, key: string): unknown[] {
  const found = field(value, key);
  return Array.isArray(found) ? (found as unknown[]) : [];
}

/** A failed expectation of a step; the message says what was expected and what came back. */
export class CheckFailure extends Error {}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

export function expectStatus(reply: ApiReply, status: number, what: string): void {
  expectThat(reply.status === status, `${what}: expected ${status}, got ${reply.status} ${reply.text.slice(0, 200)}`);
}
