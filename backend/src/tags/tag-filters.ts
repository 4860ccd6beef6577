import { type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../database/database.types';

/**
 * The mute rule of every feed and the top posts, as one condition on `posts` (search writes the
 * same in raw SQL: notMutedSql in search/post-search.repository.ts): no tag of the post is one the
 * reader mutes. One NOT EXISTS probing two primary keys, post_tags (post_id, tag) and tag_prefs
 * (user_id, tag), so it costs a few index reads per post shown and nothing for a reader who mutes
 * nothing. `except` is a tag shown all the same (the muted tag's own page: a person who opens it
 * expects its posts).
 */
export function notMutedBy(userId: string, except?: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) =>
    eb.not(
      eb.exists(
        eb
          .selectFrom('post_tags')
          .innerJoin('tag_prefs', 'tag_prefs.tag', 'post_tags.tag')
          .select(sql`1`.as('muted'))
          .whereRef('post_tags.post_id', '=', 'posts.id')
          .where('tag_prefs.user_id', '=', userId)
          .where('tag_prefs.kind', '=', 'mute')
          .$if(except !== undefined, (query) => query.where('post_tags.tag', '<>', except ?? '')),
      ),
    );
}
