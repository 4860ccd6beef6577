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

/** Lists ask for one row more than the page holds: whether it comes back says if there is a next page. */
export function withLookahead(page: PageRequest): PageRequest {
  return { ...page, limit: page.limit + 1 };
}

/** The page's rows, and a cursor only when a next page exists (so clients never fetch an empty one). */
export function toPage<T extends { created_at: string; id: string }>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    rows: shown,
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/** The position after the last item of a hot-feed page: that feed is ordered by (hot_score, id). */
export interface HotKeyset {
  score: number;
  id: string;
}

/** A hot-feed page: from an offset (page number) or after a hot cursor. */
export type HotPageRequest = { limit: number } & ({ after: HotKeyset } | { offset: number });

// Marks a hot cursor, so one of another list is refused rather than misread (and the other way).
const HOT_PREFIX = 'hot';

/** The score as JavaScript prints it: the shortest text that parses back to the very same double. */
export function encodeHotCursor(keyset: HotKeyset): string {
  return Buffer.from(`${HOT_PREFIX}|${String(keyset.score)}|${keyset.id}`, 'utf8').toString('base64url');
}

export function decodeHotCursor(cursor: string): HotKeyset {
  const [prefix, rawScore, rawId, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const score = rawScore && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/.test(rawScore) ? Number(rawScore) : NaN;
  const id = parseObjectId(rawId ?? '');
  if (prefix !== HOT_PREFIX || rest.length > 0 || !Number.isFinite(score) || !id) {
    throw new BadRequestError('That cursor is not valid; start again from the first page');
  }
  return { score, id };
}
