import type { Me, SignInReply } from '@techit/contract/api-types';

/** One reply of the API, read whatever it is. */
export interface ApiReply {
  status: number;
  /** Parsed JSON, or null when the body is empty or not JSON. */
  body: unknown;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
  /** Abort a request the server never answers (a killed instance); no limit by default. */
  timeoutMs?: number;
}

/** One request to a running server; `path` includes /api. Never throws for a status. */
export async function callApi(
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
    signal: options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs),
  });
  const text = await reply.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (an image, a proxy's error page): the text is kept.
  }
  return { status: reply.status, body: parsed, text, headers: reply.headers };
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

export interface SignedInUser {
  id: string;
  userName: string;
  email: string;
  password: string;
  token: string;
  user: Me;
}

/** A new account through the real API (POST /api/signup, then /api/signin); throws unless both succeed. */
export async function signUpAndIn(
  baseUrl: string,
  account: { userName: string; email?: string; password?: string },
): Promise<SignedInUser> {
  const { userName } = account;
  const email = account.email ?? `${userName.toLowerCase()}@example.com`;
  const password = account.password ?? 'correct horse battery';
  const signUp = await callApi(baseUrl, 'POST', '/api/signup', { json: { userName, email, password } });
  if (signUp.status !== 201) throw new Error(`sign-up of ${userName} failed: ${signUp.status} ${signUp.text}`);
  const signIn = await callApi(baseUrl, 'POST', '/api/signin', { json: { userName, password } });
  if (signIn.status !== 200) throw new Error(`sign-in of ${userName} failed: ${signIn.status} ${signIn.text}`);
  const reply = signIn.body as SignInReply;
  return { id: reply.user._id, userName, email, password, token: reply.token, user: reply.user };
}
