import { authorNotMutedBy } from '../blocks/relation-filters';
import { type RawBuilder, sql } from 'kysely';
import type { SearchQuery, SearchTerm } from './search-query.parser';

/** A post as search shows it; desc and body are cut to their first SEARCH_TEXT_CHARS characters. */
export interface PostHitRow {
  id: string;
  title: string;
  description: string;
  body: string;
  author_id: string;
  author_user_name: string;
  author_pic: string;
  likes_count: number;
  comments_count: number;
  created_at: string;
}

/**
 * The reader's muted tags left out (decision 032), as raw SQL both engines read: no tag of the
 * post `postId` names is one `userId` mutes, except the tags the query names (`tag:rust` shows
 * rust's posts to a reader who mutes rust, as its tag page does). Probes the primary keys of
 * post_tags and tag_prefs. Nor is its author one `userId` mutes (decision 048; always, even when
 * the query names them with @userName: muting is asking not to see them).
 */
export function notMutedSql(
  postId: RawBuilder<unknown>,
  userId: string | undefined,
  named: readonly string[] = [],
): RawBuilder<unknown> {
  if (userId === undefined) return sql``;
  // The post's author by posts' primary key: the one "not muted" condition of decision 048.
  const authorId = sql<string>`(select searched_post.author_id from posts as searched_post where searched_post.id = ${postId})`;
  return sql`and not exists (select 1 from post_tags join tag_prefs on tag_prefs.tag = post_tags.tag
    where post_tags.post_id = ${postId} and tag_prefs.user_id = ${userId} and tag_prefs.kind = 'mute'
    ${named.length > 0 ? sql`and post_tags.tag not in (${sql.join([...named])})` : sql``})
    and ${authorNotMutedBy(userId, authorId)}`;
}

/** `tag:name` (each named tag carried by the post `postId`), as raw SQL both engines read. */
export function taggedSql(postId: RawBuilder<unknown>, tags: readonly string[]): RawBuilder<unknown> {
  if (tags.length === 0) return sql``;
  return sql.join(
    tags.map(
      (tag) => sql`and exists (select 1 from post_tags where post_tags.post_id = ${postId} and post_tags.tag = ${tag})`,
    ),
    sql` `,
  );
}

/** Enough text for a snippet around an early match without reading a 256 KB article whole. */
export const SEARCH_TEXT_CHARS = 4000;

/**
 * The posts index, one interface over each database's full-text engine (FTS5 on SQLite,
 * tsvector + GIN on PostgreSQL; docs/decisions/034-search.md). Only the matching and ranking
 * differ, so only they live in the two implementations. `mutedBy` leaves out the posts of that
 * reader's muted tags (notMutedSql) but those the query names; `tag:name` is one more EXISTS on
 * post_tags per tag (taggedSql).
 */
export interface PostSearchRepository {
  /**
   * Posts whose title, reduced to its words (posts.title_key), is the query's wanted words, and
   * that hold no unwanted one: the shortest titles first, then the newest.
   */
  exactTitles(query: SearchQuery, limit: number, mutedBy?: string): Promise<PostHitRow[]>;
  /** Matching posts best first (weighted title > desc > body, then newest), leaving out `excludeIds`. */
  ranked(
    query: SearchQuery,
    excludeIds: string[],
    offset: number,
    limit: number,
    mutedBy?: string,
  ): Promise<PostHitRow[]>;
  /** Indexed words starting with `first` and `min`–`max` letters long, with how many posts hold each. */
  knownWords(first: string, min: number, max: number): Promise<{ term: string; docs: number }[]>;
  /**
   * A condition (raw SQL opening with `and`) that the row `posts` of the enclosing query matches
   * the query (words, phrases, exclusions, `@userName`, `tag:name`) by this engine's index: how a
   * list of the reader's own (their bookmarks, decision 043) is searched within. It probes one
   * post at a time, so its cost follows the list walked, not how many posts match site-wide.
   */
  matching(query: SearchQuery): RawBuilder<unknown>;
}

/** `@userName` on the row `posts` of the enclosing query: a probe of users by primary key. */
export function byAuthorSql(query: SearchQuery): RawBuilder<unknown> {
  if (!query.author) return sql``;
  return sql`and exists (select 1 from users where users.id = posts.author_id
    and lower(users.user_name) = ${query.author.toLowerCase()})`;
}

export const POST_SEARCH_REPOSITORY = Symbol('PostSearchRepository');

export function positives(query: SearchQuery): SearchTerm[] {
  return query.terms.filter((term) => !term.negated);
}

export function negatives(query: SearchQuery): SearchTerm[] {
  return query.terms.filter((term) => term.negated);
}
