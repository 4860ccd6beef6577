import { Inject, Injectable } from '@nestjs/common';
import { type Expression, type SqlBool, sql } from 'kysely';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';
import {
  negatives,
  positives,
  type PostHitRow,
  type PostSearchRepository,
  SEARCH_TEXT_CHARS,
} from './post-search.repository';
import type { SearchQuery, SearchTerm } from './search-query.parser';

/** FTS5 phrase syntax from our tokens alone (letters and digits: nothing to escape). */
function phrase(term: SearchTerm): string {
  return `"${term.tokens.join(' ')}"`;
}

/**
 * SQLite: FTS5 over posts (external content, migration 2026-11-26T00-30-00-post-search).
 * bm25's column weights: title 10, desc 4, body 1 (lower is better in FTS5).
 */
@Injectable()
export class SqlitePostSearchRepository implements PostSearchRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async titleCandidates(query: SearchQuery, titleLike: string, limit: number): Promise<PostHitRow[]> {
    return (
      this.base(query)
        .where(sql<SqlBool>`lower(posts.title) like ${titleLike}`)
        // The shortest titles first: an exact title holds the query's words and little else.
        .orderBy(sql`length(posts.title)`)
        .orderBy('posts.created_at', 'desc')
        .orderBy('posts.id', 'desc')
        .limit(limit)
        .execute()
    );
  }

  async ranked(query: SearchQuery, excludeIds: string[], offset: number, limit: number): Promise<PostHitRow[]> {
    let select = this.base(query);
    if (excludeIds.length > 0) select = select.where('posts.id', 'not in', excludeIds);
    if (positives(query).length > 0) {
      select = select.orderBy(sql`bm25(posts_fts, 10.0, 4.0, 1.0)`);
    }
    return select.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit(limit).offset(offset).execute();
  }

  async knownWords(first: string, min: number, max: number): Promise<{ term: string; docs: number }[]> {
    const next = String.fromCodePoint((first.codePointAt(0) ?? 0) + 1);
    const result = await sql<{ term: string; docs: number }>`select term, doc as docs from posts_fts_vocab
      where term >= ${first} and term < ${next} and length(term) between ${min} and ${max}`.execute(this.db);
    return result.rows;
  }

  /** The matching posts with their authors; the query builder every method narrows and orders. */
  private base(query: SearchQuery) {
    const wanted = positives(query);
    const unwanted = negatives(query);
    const excluded = unwanted.map(phrase).join(' OR ');
    let select =
      wanted.length > 0
        ? this.db
            .selectFrom(sql<{ rowid: number }>`posts_fts`.as('posts_fts'))
            .innerJoin('posts', (join) => join.on(sql<SqlBool>`posts.rowid = posts_fts.rowid`))
            .where(
              sql<SqlBool>`posts_fts match ${wanted.map(phrase).join(' AND ') + (excluded ? ` NOT (${excluded})` : '')}`,
            )
        : this.db.selectFrom('posts').where(this.notMatching(excluded));
    if (query.author) select = select.where(sql<SqlBool>`lower(users.user_name) = ${query.author.toLowerCase()}`);
    return select
      .innerJoin('users', 'users.id', 'posts.author_id')
      .select([
        'posts.id',
        'posts.title',
        sql<string>`substr(posts.description, 1, ${SEARCH_TEXT_CHARS})`.as('description'),
        sql<string>`substr(posts.body, 1, ${SEARCH_TEXT_CHARS})`.as('body'),
        'posts.author_id',
        'users.user_name as author_user_name',
        'users.pic as author_pic',
        'posts.likes_count',
        'posts.comments_count',
        'posts.created_at',
      ]);
  }

  private notMatching(excluded: string): Expression<SqlBool> {
    if (!excluded) return sql<SqlBool>`1 = 1`;
    return sql<SqlBool>`posts.rowid not in (select rowid from posts_fts where posts_fts match ${excluded})`;
  }
}
