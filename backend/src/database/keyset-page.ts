import { type SelectQueryBuilder, sql } from 'kysely';
import type { Keyset, PageRequest } from '../common/cursor';

/** The tables a query may page through: those with the (created_at, id) key that lists order by. */
type KeyedTable<DB, TB extends keyof DB> = {
  [T in TB]: DB[T] extends { created_at: string; id: string } ? T : never;
}[TB] &
  string;

/**
 * Newest first by (created_at, id) of `table`. The order is total (ids are unique), so a keyset
 * page never overlaps the one before it; the indexes on (created_at, id) serve it.
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  table: KeyedTable<DB, TB>,
): SelectQueryBuilder<DB, TB, O> {
  return query.orderBy(sql.ref(`${table}.created_at`), 'desc').orderBy(sql.ref(`${table}.id`), 'desc');
}

/**
 * One page of a list of `table` rows, newest first: those after the keyset, or from the offset,
 * at most `page.limit` of them (with `withLookahead` from common/cursor.ts, one more than shown).
 * Every paged list builds its page here, so the cursor and the order always mean the same thing.
 *
 * The SQL's shape depends on the page (keyset or offset), so a query using this is built per
 * request, never held in a `PreparedQuery`.
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  table: KeyedTable<DB, TB>,
  page: PageRequest,
): SelectQueryBuilder<DB, TB, O> {
  let paged = query;
  if ('keyset' in page) {
    const { createdAt, id } = page.keyset;
    paged = paged.where((eb) =>
      eb(eb.refTuple(sql.ref(`${table}.created_at`), sql.ref(`${table}.id`)), '<', eb.tuple(createdAt, id)),
    );
  }
  paged = newestFirst(paged, table).limit(page.limit);
  // Page 1 says no OFFSET at all rather than OFFSET 0.
  return 'offset' in page && page.offset > 0 ? paged.offset(page.offset) : paged;
}

/**
 * The same page read the other way, oldest first by (created_at, id): what a conversation pages
 * through. Keyset only (a thread has no page numbers); `after` is the last row of the page before.
 */
export function oldestFirstPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  table: KeyedTable<DB, TB>,
  page: { limit: number; after?: Keyset },
): SelectQueryBuilder<DB, TB, O> {
  let paged = query;
  if (page.after) {
    const { createdAt, id } = page.after;
    paged = paged.where((eb) =>
      eb(eb.refTuple(sql.ref(`${table}.created_at`), sql.ref(`${table}.id`)), '>', eb.tuple(createdAt, id)),
    );
  }
  return paged
    .orderBy(sql.ref(`${table}.created_at`))
    .orderBy(sql.ref(`${table}.id`))
    .limit(page.limit);
}
