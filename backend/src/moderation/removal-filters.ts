import { type Expression, expressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../database/database.types';

/**
 * The one rule that takes a post the moderators removed out of every list (feeds, a profile's
 * posts, tag pages, top posts, bookmarks, feed files, sitemaps; docs/decisions/047-moderation.md),
 * as a condition on the post whose id is `postId`. On the posts row it is a column test on the row
 * the list reads anyway; where a list walks post_tags' index (tag pages) it is one probe of posts'
 * primary key per row, like tags' notMutedBy. Neither adds a statement. Search needs none: a
 * removed post leaves the search index (the triggers of migration 2026-11-28T06-00-00).
 */
export function notRemoved(postId: 'posts.id' | 'post_tags.post_id' = 'posts.id'): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'posts'>();
  if (postId === 'posts.id') return eb('posts.removed_at', 'is', null);
  return eb.not(
    eb.exists(
      eb
        .selectFrom('posts as removed_post')
        .select(sql`1`.as('removed'))
        .where('removed_post.id', '=', sql.ref<string>(postId))
        .where('removed_post.removed_at', 'is not', null),
    ),
  );
}

/** notRemoved as raw SQL (opening with `and`) on the row `posts`, for the raw statements of search. */
export function notRemovedSql(posts = 'posts'): RawBuilder<unknown> {
  return sql`and ${sql.ref(`${posts}.removed_at`)} is null`;
}
