import { Inject, Injectable } from '@nestjs/common';
import { type SqlBool, sql } from 'kysely';
import { SEARCH } from '@techit/contract/limits';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';
import {
  negatives,
  notMutedSql,
  positives,
  type PostHitRow,
  taggedSql,
  type PostSearchRepository,
  SEARCH_TEXT_CHARS,
} from './post-search.repository';
import type { SearchQuery, SearchTerm } from './search-query.parser';

/** tsquery syntax from our tokens alone (letters and digits: nothing to escape). */
function tsTerm(term: SearchTerm, weight = ''): string {
  // `ku:*` for a prefix (weight after it: `ku:*A`).
  const tokens = term.tokens.map((token) => (term.prefix ? `${token}:*${weight.slice(1)}` : token + weight));
  return tokens.length > 1 ? `(${tokens.join(' <-> ')})` : (tokens[0] ?? '');
}

/** titleOnly: the wanted terms only as title words (weight A). */
function tsQuery(query: SearchQuery, titleOnly = false): string {
  return [
    ...positives(query).map((term) => tsTerm(term, titleOnly ? ':A' : '')),
    ...negatives(query).map((term) => `!${tsTerm(term)}`),
  ].join(' & ');
}

/**
 * PostgreSQL: each post's weighted tsvector in post_search under a GIN index (migration
 * 2026-11-26T00-30-00-post-search). ts_rank_cd's weights {D, C, B, A} = {0.1, 0.2, 0.4, 1.0}:
 * title 1.0, desc 0.4, body 0.2.
 */
@Injectable()
export class PostgresPostSearchRepository implements PostSearchRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async titleCandidates(query: SearchQuery, titleLike: string, limit: number, mutedBy?: string): Promise<PostHitRow[]> {
    return (
      this.base(query, mutedBy)
        .where(sql<SqlBool>`lower(posts.title) like ${titleLike}`)
        // The shortest titles first: an exact title holds the query's words and little else.
        .orderBy(sql`length(posts.title)`)
        .orderBy('posts.created_at', 'desc')
        .orderBy('posts.id', 'desc')
        .limit(limit)
        .execute()
    );
  }

  async ranked(
    query: SearchQuery,
    excludeIds: string[],
    offset: number,
    limit: number,
    mutedBy?: string,
  ): Promise<PostHitRow[]> {
    let select = this.base(query, mutedBy);
    if (excludeIds.length > 0) select = select.where('posts.id', 'not in', excludeIds);
    if (positives(query).length > 0) {
      // Only the newest SEARCH.rankWindow matches are ranked (decision 034): the GIN index finds
      // every match cheaply, ts_rank_cd (which reads each tsvector) then runs on the window alone.
      const recent = select
        .clearSelect()
        .select('posts.id')
        .orderBy('posts.created_at', 'desc')
        .orderBy('posts.id', 'desc')
        .limit(SEARCH.rankWindow);
      select = select
        .where('posts.id', 'in', recent)
        .orderBy(
          sql`ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', post_search.document, to_tsquery('simple', ${tsQuery(query)}))`,
          'desc',
        );
    }
    return select.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit(limit).offset(offset).execute();
  }

  async knownWords(first: string, min: number, max: number): Promise<{ term: string; docs: number }[]> {
    // ts_stat reads every document: slower than SQLite's vocabulary table, and only run when a
    // search found nothing as typed (docs/decisions/034-search.md).
    const result = await sql<{ term: string; docs: number }>`select word as term, ndoc as docs
      from ts_stat('select document from post_search')
      where left(word, 1) = ${first} and length(word) between ${min} and ${max}`.execute(this.db);
    return result.rows;
  }

  private base(query: SearchQuery, mutedBy?: string, titleOnly = false) {
    let select = this.db
      .selectFrom('posts')
      .innerJoin(sql<{ post_id: string; document: string }>`post_search`.as('post_search'), (join) =>
        join.on(sql<SqlBool>`post_search.post_id = posts.id`),
      );
    if (query.terms.length > 0) {
      select = select.where(sql<SqlBool>`post_search.document @@ to_tsquery('simple', ${tsQuery(query, titleOnly)})`);
    }
    if (query.author) select = select.where(sql<SqlBool>`lower(users.user_name) = ${query.author.toLowerCase()}`);
    if (query.tags.length > 0) select = select.where(sql<SqlBool>`true ${taggedSql(sql.ref('posts.id'), query.tags)}`);
    // The reader's muted tags but the named ones (decision 032): `true` opens the raw condition's leading `and`.
    if (mutedBy !== undefined)
      select = select.where(sql<SqlBool>`true ${notMutedSql(sql.ref('posts.id'), mutedBy, query.tags)}`);
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
}
