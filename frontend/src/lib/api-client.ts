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
    /** The reply's Retry-After, in seconds, when it had one (a 429). */
    readonly retryAfterSeconds: number | null = null,
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

/** The request as every call sends it: the bearer token, the field-errors preference, JSON or a form. */
async function send(
  path: string,
  options: RequestOptions,
  accept: string,
): Promise<{ response: Response; token: string | null }> {
  const token = storage.token();
  const headers: Record<string, string> = { Accept: accept };
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
  try {
    const response = await fetch(`/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
    });
    return { response, token };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The server could not be reached; check your connection');
  }
}

/** An error reply as an ApiError, logged; a 401 to the token still in use ends the session. */
function failure(
  path: string,
  options: RequestOptions,
  response: Response,
  token: string | null,
  payload: unknown,
): ApiError {
  const reply = payload as ErrorReply | null;
  const message = reply?.error ?? `Request failed (${response.status})`;
  // The spec's client logs every error reply; a warning keeps the console's error channel for
  // real faults.
  console.warn(`${options.method ?? 'GET'} /api${path}: ${message}`);
  // Only when the token sent is still the stored one: a request that left before a password
  // change swapped in the new token (decision 049) is refused, but this browser's session goes on.
  if (response.status === 401 && token && storage.token() === token)
    sessionExpiredListeners.forEach((listener) => listener());
  const retryAfter = Number(response.headers.get('Retry-After'));
  return new ApiError(
    response.status,
    message,
    reply?.fields ?? {},
    payload,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/**
 * The one way the web app talks to the API: JSON in and out, the bearer token from storage, and
 * every failure turned into an ApiError carrying the server's message. Callers decide which
 * failures a person should be told about (the spec names a toast per call).
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { response, token } = await send(path, options, 'application/json');
  const payload: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = failure(path, options, response, token, payload);
    // The caller's toast says what failed (the spec's wording); this one says why and for how long.
    if (response.status === 429) notify.slowDown(error.message);
    throw error;
  }
  return payload as T;
}

/** A file the API answers (the data export): its bytes and the name its Content-Disposition gives. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * Like `api`, for a reply that is a file rather than JSON. The browser keeps a large Blob on disk
 * rather than in the page's memory (decision 049's addendum). A 429 is left to the caller, which
 * says when to try again (ApiError.retryAfterSeconds).
 */
export async function apiDownload(path: string, options: RequestOptions = {}): Promise<DownloadedFile> {
  const { response, token } = await send(path, options, 'application/zip, application/json');
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null);
    throw failure(path, options, response, token, payload);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    // Cut short part-way (decision 049): what arrived is not a whole archive.
    throw new ApiError(0, 'The download was interrupted; try again later');
  }
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob, fileName: name };
}
