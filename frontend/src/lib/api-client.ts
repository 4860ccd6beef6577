import { type ErrorReply, FIELD_ERRORS_PREFERENCE } from '@techit/contract/api-types';
import { notify } from './notify';
import { storage } from './storage';

/**
 * A reply with an error status: `message` is the server's `{ error }` text, `fields` its sentence
 * per failing request field (invalid input), for a form to show next to each field.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Readonly<Partial<Record<string, string>>> = {},
    /** The whole error reply, for the calls whose refusal carries more than a sentence (a draft's 409 sends the stored draft). */
    readonly reply: unknown = null,
  ) {
    super(message);
  }
}

type Listener = () => void;
const sessionExpiredListeners = new Set<Listener>();

/** The session provider listens here: a 401 to a request that carried a token ends the session. */
export function onSessionExpired(listener: Listener): () => void {
  sessionExpiredListeners.add(listener);
  return () => sessionExpiredListeners.delete(listener);
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Sent as Idempotency-Key on the creating calls (lib/idempotency-key.ts): a retry never writes twice. */
  idempotencyKey?: string;
}

/**
 * The one way the web app talks to the API: JSON in and out, the bearer token from storage, and
 * every failure turned into an ApiError carrying the server's message. Callers decide which
 * failures a person should be told about (the spec names a toast per call).
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = storage.token();
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A refused change names each failing field with a sentence, which the forms show next to it.
  if (options.method && options.method !== 'GET') headers.Prefer = FIELD_ERRORS_PREFERENCE;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The server could not be reached; check your connection');
  }
  const payload: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const reply = payload as ErrorReply | null;
    const message = reply?.error ?? `Request failed (${response.status})`;
    // The spec's client logs every error reply; a warning keeps the console's error channel for
    // real faults.
    console.warn(`${options.method ?? 'GET'} /api${path}: ${message}`);
    if (response.status === 401 && token) sessionExpiredListeners.forEach((listener) => listener());
    // The caller's toast says what failed (the spec's wording); this one says why and for how long.
    if (response.status === 429) notify.slowDown(message);
    throw new ApiError(response.status, message, reply?.fields ?? {}, payload);
  }
  return payload as T;
}
