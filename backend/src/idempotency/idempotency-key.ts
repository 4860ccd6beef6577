import { createHash } from 'node:crypto';
import { BadRequestError } from '../common/app-errors';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const MAX_KEY_LENGTH = 255;

/**
 * The Idempotency-Key header's value, or null when the request has none (then nothing changes).
 * 1 to 255 printable ASCII characters (a UUID is the usual one); anything else is refused with
 * 400 rather than silently ignored, since a client sending it counts on it.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) throw new BadRequestError('Send one Idempotency-Key header, not several');
  if (header.length < 1 || header.length > MAX_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(header)) {
    throw new BadRequestError(
      `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable characters (a UUID, for example)`,
    );
  }
  return header;
}

/**
 * What makes two requests "the same": the URL (path and query) and the JSON body, its keys sorted
 * so that a client serialising the same object in another order still matches.
 */
export function requestHash(url: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([url, sortedKeys(body)]))
    .digest('hex');
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
