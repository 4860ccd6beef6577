import { notRemovedSql } from '../moderation/removal-filters';
import { Inject, Injectable } from '@nestjs/common';
import { type RawBuilder, sql } from 'kysely';
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

/** FTS5 phrase syntax from our tokens alone (letters and digits: nothing to escape); `"ku" *` for a prefix. */
function phrase(term: SearchTerm): string {
  return `"${term.tokens.join(' ')}"${term.prefix ? ' *' : ''}`;
}

/** The MATCH expression: every wanted term, none of the unwanted. */
function matchExpression(query: SearchQuery): string {
  const wanted = positives(query).map(phrase).join(' AND ');
  const unwanted = negatives(query).map(phrase).join(' OR ');
  return unwanted ? `${wanted} NOT (${unwanted})` : wanted;
}

const COLUMNS = sql`posts.id, posts.title, substr(posts.description, 1, ${SEARCH_TEXT_CHARS}) as description,
  substr(posts.body, 1, ${SEARCH_TEXT_CHARS}) as body, posts.author_id, users.user_name as author_user_name,
  users.pic as author_pic, posts.likes_count, posts.comments_count, posts.created_at`;

/**
 * SQLite: FTS5 over posts (external content, migration 2026-11-26T00-30-00-post-search).
 * bm25's column weights: title 10, desc 4, body 1 (lower is better in FTS5). The page is chosen
 * inside the FTS table alone, among the newest SEARCH.rankWindow matches, and only its rows are
 * joined (decision 034 has the figures).
 */
@Injectable()
export class SqlitePostSearchRepository implements PostSearchRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /**
   * The equality on posts.title_key (its index; migration 2026-11-29T06-00-00). A match of the
   * title in FTS5 walked every post holding the words anywhere: 70 ms for two words at 1M posts.
   * A removed post is left out here as it is out of the FTS index, and so is one holding an
   * unwanted word (a probe of the index for that post alone).
   */
  async exactTitles(query: SearchQuery, limit: number, mutedBy?: string): Promise<PostHitRow[]> {
    const unwanted = negatives(query).map(phrase).join(' OR ');
    const without = unwanted
      ? sql`and not exists (select 1 from posts_fts where posts_fts.rowid = posts.rowid and posts_fts match ${unwanted})`
      : sql``;
    const result = await sql<PostHitRow>`select ${COLUMNS} from posts join users on users.id = posts.author_id
      where posts.title_key = ${exactTitleKey(query)} ${notRemovedSql()} ${without} ${this.byAuthor(query)}
        ${taggedSql(sql.ref('posts.id'), query.tags)} ${notMutedSql(sql.ref('posts.id'), mutedBy, query.tags)}
      order by length(posts.title), posts.created_at desc, posts.id desc limit ${limit}`.execute(this.db);
    return result.rows;
  }

  async ranked(
    query: SearchQuery,
    excludeIds: string[],
    offset: number,
    limit: number,
    mutedBy?: string,
  ): Promise<PostHitRow[]> {
    const excluded =
      excludeIds.length > 0
        ? sql`and +posts_fts.rowid not in (select rowid from posts where id in (${sql.join(excludeIds)}))`
        : sql``;
    // No wanted word means no exact title either, so nothing is excluded there.
    if (positives(query).length === 0) return this.newestFirst(query, offset, limit, mutedBy);
    // Each condition on posts is a set of rowids made once (`+rowid`: the unary plus keeps SQLite
    // from pushing `rowid IN (…)` into FTS5, which runs one MATCH per listed rowid: 6 s for a word
    // within a tag of 10k posts). A subquery checked per FTS row instead cost ~5 µs a row.
    const within = (rowids: RawBuilder<unknown>) => sql`and +posts_fts.rowid in (${rowids})`;
    const author = query.author
      ? within(
          sql`select posts.rowid from posts where posts.author_id = (select users.id from users where lower(users.user_name) = ${query.author.toLowerCase()})`,
        )
      : sql``;
    const tagged = sql.join(
      query.tags.map((tag) =>
        within(
          sql`select posts.rowid from post_tags join posts on posts.id = post_tags.post_id where post_tags.tag = ${tag}`,
        ),
      ),
      sql` `,
    );
    const muted =
      mutedBy === undefined
        ? sql``
        : sql`and +posts_fts.rowid not in (select posts.rowid from posts join post_tags on post_tags.post_id = posts.id
            join tag_prefs on tag_prefs.tag = post_tags.tag where tag_prefs.user_id = ${mutedBy} and tag_prefs.kind = 'mute'
            ${query.tags.length > 0 ? sql`and post_tags.tag not in (${sql.join(query.tags)})` : sql``})`;
    // Only the newest SEARCH.rankWindow matches are ranked: FTS5 hands rows over by rowid (the
    // order posts were written) and bm25 runs on those alone, so a word in a fifth of 100k posts
    // costs a window, not 20k scores (decision 034). Ties of bm25 go to the newer row; the outer
    // order then sorts by created_at.
    const result = await sql<PostHitRow>`with recent as (
        select posts_fts.rowid as hit, bm25(posts_fts, 10.0, 4.0, 1.0) as score from posts_fts
        where posts_fts match ${matchExpression(query)} ${excluded} ${author} ${tagged} ${muted}
        order by posts_fts.rowid desc limit ${SEARCH.rankWindow}),
      hits as (select hit, score from recent order by score, hit desc limit ${limit} offset ${offset})
      select ${COLUMNS} from hits join posts on posts.rowid = hits.hit join users on users.id = posts.author_id
      order by hits.score, posts.created_at desc, posts.id desc`.execute(this.db);
    return result.rows;
  }

  async knownWords(first: string, min: number, max: number): Promise<{ term: string; docs: number }[]> {
    const next = String.fromCodePoint((first.codePointAt(0) ?? 0) + 1);
    const result = await sql<{ term: string; docs: number }>`select term, doc as docs from posts_fts_vocab
      where term >= ${first} and term < ${next} and length(term) between ${min} and ${max}`.execute(this.db);
    return result.rows;
  }

  /**
   * `posts_fts.rowid = posts.rowid` hands FTS5 one rowid to test the MATCH on (a doclist seek),
   * so a reader's list of saved posts is filtered post by post as it is walked.
   */
  matching(query: SearchQuery): RawBuilder<unknown> {
    const unwanted = negatives(query).map(phrase).join(' OR ');
    const text =
      positives(query).length > 0
        ? sql`and exists (select 1 from posts_fts where posts_fts.rowid = posts.rowid
            and posts_fts match ${matchExpression(query)})`
        : unwanted
          ? sql`and not exists (select 1 from posts_fts where posts_fts.rowid = posts.rowid
            and posts_fts match ${unwanted})`
          : sql``;
    return sql`${text} ${byAuthorSql(query)} ${taggedSql(sql.ref('posts.id'), query.tags)}`;
  }

  /**
   * No wanted word (`@userName`, `tag:name` or both, perhaps with exclusions): the matching posts
   * newest first. With a tag, read from the first tag's index (tag, created_at, post_id) in order,
   * so a page costs its rows however many posts the tag has.
   */
  private async newestFirst(
    query: SearchQuery,
    offset: number,
    limit: number,
    mutedBy?: string,
  ): Promise<PostHitRow[]> {
    const unwanted = negatives(query).map(phrase).join(' OR ');
    const [first, ...others] = query.tags;
    const where = sql`${query.author ? sql`and lower(users.user_name) = ${query.author.toLowerCase()}` : sql``}
        ${unwanted ? sql`and posts.rowid not in (select rowid from posts_fts where posts_fts match ${unwanted})` : sql``}
        ${taggedSql(sql.ref('posts.id'), others)}
        ${notMutedSql(sql.ref('posts.id'), mutedBy, query.tags)}
        ${notRemovedSql()}`;
    const result =
      first === undefined
        ? await sql<PostHitRow>`select ${COLUMNS} from posts join users on users.id = posts.author_id
            where true ${where}
            order by posts.created_at desc, posts.id desc limit ${limit} offset ${offset}`.execute(this.db)
        : await sql<PostHitRow>`select ${COLUMNS} from post_tags as first_tag
            join posts on posts.id = first_tag.post_id join users on users.id = posts.author_id
            where first_tag.tag = ${first} ${where}
            order by first_tag.created_at desc, first_tag.post_id desc limit ${limit} offset ${offset}`.execute(
            this.db,
          );
    return result.rows;
  }

  private byAuthor(query: SearchQuery): RawBuilder<unknown> {
    return query.author ? sql`and lower(users.user_name) = ${query.author.toLowerCase()}` : sql``;
  }
}
