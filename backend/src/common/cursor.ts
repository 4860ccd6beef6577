import { BadRequestError } from './app-errors';
import { parseObjectId } from './object-id';

/** The position after the last item of a page: lists are ordered by (createdAt, id), newest first. */
export interface Keyset {
  createdAt: string;
  id: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Opaque to clients, so the paging key can change without breaking them. */
export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(`${keyset.createdAt}|${keyset.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): Keyset {
  const [createdAt, rawId, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const id = parseObjectId(rawId);
  if (rest.length > 0 || !createdAt || !ISO.test(createdAt) || !id) {
    throw new BadRequestError('That cursor is not valid; start again from the first page');
  }
  return { createdAt, id };
}

/** A page is either an offset (page number) or a keyset (cursor); the cursor wins when both are sent. */
export type PageRequest = { limit: number } & ({ keyset: Keyset } | { offset: number });

export function nextCursorOf<T extends { created_at: string; id: string }>(rows: T[], limit: number): string | null {
  const last = rows[rows.length - 1];
  return rows.length === limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null;
}
