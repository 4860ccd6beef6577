import { Inject, Injectable } from '@nestjs/common';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { SEARCH } from '@techit/contract/limits';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';
import {
  byAuthorSql,
  negatives,
  notMutedSql,
  positives,
  type PostHitRow,
  taggedSql,
  type PostSearchRepository,
  SEARCH_TEXT_CHARS,
} from './post-search.repository';
import { exactTitleKey, type SearchQuery, type SearchTerm } from './search-query.parser';

/** tsquery syntax from our tokens alone (letters and digits: nothing to escape). */
function tsTerm(term: SearchTerm): string {
  // `ku:*` for a prefix.
  const tokens = term.tokens.map((token) => (term.prefix ? `${token}:*` : token));
  return tokens.length > 1 ? `(${tokens.join(' <-> ')})` : (tokens[0] ?? '');
}

function tsQuery(query: SearchQuery): string {
  return [...positives(query).map((term) => tsTerm(term)), ...negatives(query).map((term) => `!${tsTerm(term)}`)].join(
    ' & ',
  );
}

/**
 * PostgreSQL: each post's weighted tsvector in post_search under a GIN index (migration
 * 2026-11-26T00-30-00-post-search). ts_rank_cd's weights {D, C, B, A} = {0.1, 0.2, 0.4, 1.0}:
 * title 1.0, desc 0.4, body 0.2.
 */
@Injectable()
export class PostgresPostSearchRepository implements PostSearchRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async exactTitles(query: SearchQuery, limit: number, mutedBy?: string): Promise<PostHitRow[]> {
    // An equality on the title reduced to its words (posts.title_key, written with the title by
    // titleKey, under a btree index; migration 2026-11-29T06-00-00). A LIKE over lower(title)
    // scanned every post (135 ms at 100k).
    return (
      this.base(query, mutedBy)
        .where('posts.title_key', '=', exactTitleKey(query))
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
    if (positives(query).length === 0) {
      // Nothing to rank (`tag:rust`, `@ana -async`): newest first.
      let select = this.base(query, mutedBy);
      if (excludeIds.length > 0) select = select.where('posts.id', 'not in', excludeIds);
      return select
        .orderBy('posts.created_at', 'desc')
        .orderBy('posts.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    }
    // Only the newest SEARCH.rankWindow matches are ranked (decision 034). The window is read
    // from post_search alone (GIN index, then its own created_at: no probe of posts per match),
    // ts_rank_cd runs on the window's documents, the page is chosen there, and only the page's
    // rows are joined to posts and users (by primary key).
    const tsquery = sql`to_tsquery('simple', ${tsQuery(query)})`;
    const author = query.author
      ? sql`and exists (select 1 from posts join users on users.id = posts.author_id
          where posts.id = post_search.post_id and lower(users.user_name) = ${query.author.toLowerCase()})`
      : sql``;
    const excluded = excludeIds.length > 0 ? sql`and post_search.post_id not in (${sql.join(excludeIds)})` : sql``;
    const postId = sql.ref('post_search.post_id');
    const statement = sql<PostHitRow>`select posts.id, posts.title,
        substr(posts.description, 1, ${SEARCH_TEXT_CHARS}) as description,
        substr(posts.body, 1, ${SEARCH_TEXT_CHARS}) as body,
        posts.author_id, users.user_name as author_user_name, users.pic as author_pic,
        posts.likes_count, posts.comments_count, posts.created_at
      from (
        select hit.post_id, hit.created_at, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', hit.document, ${tsquery}) as rank
        from (
          select post_search.post_id, post_search.created_at, post_search.document from post_search
          where post_search.document @@ ${tsquery} ${author} ${taggedSql(postId, query.tags)}
            ${notMutedSql(postId, mutedBy, query.tags)} ${excluded}
          order by post_search.created_at desc, post_search.post_id desc
          limit ${SEARCH.rankWindow}
        ) hit
        order by rank desc, hit.created_at desc, hit.post_id desc
        limit ${limit} offset ${offset}
      ) page
      join posts on posts.id = page.post_id
      join users on users.id = posts.author_id
      order by page.rank desc, page.created_at desc, page.post_id desc`;
    // For a word in a fifth of the posts the planner prefers a (parallel) scan of every document
    // to the GIN index (94 ms against 40 ms at 100k posts): the index is always the better way to
    // the window, so sequential scans are off for this one statement (`set local`).
    return await this.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return (await statement.execute(trx)).rows;
    });
  }

  async knownWords(first: string, min: number, max: number): Promise<{ term: string; docs: number }[]> {
    // post_search_words is kept by a trigger on post_search (migration 2026-11-26T03-30-00);
    // ts_stat, which read every document, cost 800 ms at 100k posts.
    const result = await sql<{ term: string; docs: number }>`select word as term, docs from post_search_words
      where left(word, 1) = ${first} and length(word) between ${min} and ${max} and docs > 0`.execute(this.db);
    return result.rows;
  }

  /** One probe of post_search by its primary key per post walked (a tsquery of exclusions alone is valid). */
  matching(query: SearchQuery): RawBuilder<unknown> {
    const text =
      query.terms.length > 0
        ? sql`and exists (select 1 from post_search where post_search.post_id = posts.id
            and post_search.document @@ to_tsquery('simple', ${tsQuery(query)}))`
        : sql``;
    return sql`${text} ${byAuthorSql(query)} ${taggedSql(sql.ref('posts.id'), query.tags)}`;
  }

  private base(query: SearchQuery, mutedBy?: string) {
    let select = this.db
      .selectFrom('posts')
      .innerJoin(sql<{ post_id: string; document: string }>`post_search`.as('post_search'), (join) =>
        join.on(sql<SqlBool>`post_search.post_id = posts.id`),
      );
    if (query.terms.length > 0) {
      select = select.where(sql<SqlBool>`post_search.document @@ to_tsquery('simple', ${tsQuery(query)})`);
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
