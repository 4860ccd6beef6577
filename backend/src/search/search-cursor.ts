import { SEARCH } from '@techit/contract/limits';
import { BadRequestError } from '../common/app-errors';

/**
 * Search pages by position: results are ranked by relevance, which no keyset expresses on both
 * databases, and nobody pages past SEARCH.depthMax (docs/decisions/034-search.md). Opaque to
 * clients all the same, so the key can change.
 */
export function encodeSearchCursor(offset: number): string {
  return Buffer.from(`search:${offset}`, 'utf8').toString('base64url');
}

export function decodeSearchCursor(cursor: string): number {
  const match = /^search:(\d{1,5})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const offset = match ? Number(match[1]) : NaN;
  if (!match || offset < 1 || offset >= SEARCH.depthMax) {
    throw new BadRequestError('That cursor is not valid; start again from the first page');
  }
  return offset;
}
