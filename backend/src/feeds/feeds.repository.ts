import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE } from '../database/database.tokens';
import { notRemoved } from '../moderation/removal-filters';
import type { Db } from '../database/database.types';
import { DELETED_USER_ID } from '../common/deleted-user';

/** Where a sitemap page starts: the first row's key in that list's order. */
export type SitemapKey = readonly string[];

/** Keys in list order: column by column, as the databases compare these texts (ASCII). */
function compareKeys(a: SitemapKey, b: SitemapKey): number {
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] !== b[index]) return a[index] < b[index] ? -1 : 1;
  }
  return 0;
}

export interface SitemapRow {
  key: SitemapKey;
  lastmod: string;
}

/**
 * What a sitemap lists, each in an order an index serves, oldest first so that a page's rows stay
 * on that page as new ones arrive (they land on the last page): posts by (created_at, id)
 * (posts_created_idx), profiles by id (the primary key; ids begin with their creation second),
 * tags in use by name (the primary key).
 */
export type SitemapKind = 'posts' | 'profiles' | 'tags';

/**
 * The reads feeds and sitemaps need that no other feature has: a page of posts' articles by id,
 * and the sitemaps' keyset walks. (A feed's posts come from PostsService's own list reads.)
 */
@Injectable()
export class FeedsRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** The articles of these posts, in one statement (lists never read them). */
  async bodiesOf(postIds: string[]): Promise<Map<string, { body: string; body_html: string | null }>> {
    if (postIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('posts')
      .select(['id', 'body', 'body_html'])
      .where('id', 'in', postIds)
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * The key of the first row of every page of `size` rows: rows number 1, size + 1, 2·size + 1…
   * One walk of the list's index (no table rows read, no OFFSET), so a sitemap index costs one
   * pass over keys, then each page is read from its own start key alone.
   */
  async pageStarts(kind: SitemapKind, size: number): Promise<SitemapKey[]> {
    if (kind === 'posts') {
      const numbered = this.db
        .selectFrom('posts')
        .select(['created_at', 'id', sql<number>`row_number() over (order by created_at, id)`.as('n')])
        .where(notRemoved());
      const rows = await this.db
        .selectFrom(numbered.as('numbered'))
        .select(['numbered.created_at', 'numbered.id'])
        .where(sql`(numbered.n - 1) % ${size}`, '=', 0)
        .execute();
      // In key order (ISO times and hex ids compare as text), sorted here: the few starts, not in SQL.
      return rows.map((row): SitemapKey => [row.created_at, row.id]).sort(compareKeys);
    }
    const [table, column] = kind === 'profiles' ? (['users', 'id'] as const) : (['tags', 'name'] as const);
    const numbered = this.db
      .selectFrom(table)
      .select([
        sql<string>`${sql.ref(column)}`.as('k'),
        sql<number>`row_number() over (order by ${sql.ref(column)})`.as('n'),
      ])
      .$if(kind === 'tags', (query) => query.where('posts_count', '>', 0));
    const rows = await this.db
      .selectFrom(numbered.as('numbered'))
      .select('numbered.k')
      .where(sql`(numbered.n - 1) % ${size}`, '=', 0)
      .execute();
    return rows.map((row): SitemapKey => [row.k]).sort(compareKeys);
  }

  /**
   * One sitemap page: the rows from `start` (a key pageStarts gave) up to, not including, `end`
   * (the next page's start; none for the last page), at most `limit`, read along the index.
   */
  async page(kind: SitemapKind, start: SitemapKey, end: SitemapKey | null, limit: number): Promise<SitemapRow[]> {
    if (kind === 'posts') {
      // Only the lower bound in SQL (in every list, alike): with both, SQLite's planner judged the
      // range small and read it through another index, then sorted it; from one bound with
      // ORDER BY … LIMIT it walks posts_created_idx and stops. The upper bound (the next page's
      // start) is applied to the at most `limit` rows read.
      const rows = await this.db
        .selectFrom('posts')
        .select(['created_at', 'id', 'updated_at'])
        .where((eb) => eb(eb.refTuple('created_at', 'id'), '>=', eb.tuple(start[0], start[1])))
        .where(notRemoved())
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows
        .filter((row) => end === null || row.created_at < end[0] || (row.created_at === end[0] && row.id < end[1]))
        .map((row) => ({ key: [row.created_at, row.id], lastmod: row.updated_at }));
    }
    if (kind === 'profiles') {
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'updated_at'])
        .where('id', '>=', start[0])
        // The placeholder account of deleted users has no profile page (common/deleted-user.ts).
        .where('id', '<>', DELETED_USER_ID)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows
        .filter((row) => end === null || row.id < end[0])
        .map((row) => ({ key: [row.id], lastmod: row.updated_at }));
    }
    // A tag's page changes when a post is tagged with it: its newest post, from post_tags'
    // (tag, created_at, post_id) index, one probe per tag.
    const rows = await this.db
      .selectFrom('tags')
      .select((eb) => [
        'tags.name',
        eb
          .selectFrom('post_tags')
          .select((inner) => inner.fn.max('post_tags.created_at').as('newest'))
          .whereRef('post_tags.tag', '=', 'tags.name')
          .as('newest'),
      ])
      .where('tags.posts_count', '>', 0)
      .where('tags.name', '>=', start[0])
      .orderBy('tags.name')
      .limit(limit)
      .execute();
    return rows
      .filter((row) => end === null || row.name < end[0])
      .map((row) => ({ key: [row.name], lastmod: row.newest ?? '1970-01-01T00:00:00.000Z' }));
  }
}
