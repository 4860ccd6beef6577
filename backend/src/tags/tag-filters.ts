import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import { authorNotMutedBy } from '../blocks/relation-filters';
import type { Database } from '../database/database.types';

/**
 * The mute rule of every feed and the top posts (search writes the same in raw SQL: notMutedSql in
 * search/post-search.repository.ts), as one condition on the post
 * whose id is `postId` (the posts row, or a post_tags row where a tag feed walks that index): no
 * tag of the post is one the reader mutes. One NOT EXISTS probing two primary keys, post_tags
 * (post_id, tag) and tag_prefs (user_id, tag), so it costs a few index reads per post shown and
 * nothing for a reader who mutes nothing. `except` is a tag shown all the same (the muted tag's
 * own page: a person who opens it expects its posts). The inner post_tags is aliased so that it
 * never shadows an outer post_tags.
 *
 * It is also where the posts of the users the reader mutes leave every feed (docs/decisions/
 * 048-blocks-and-mutes.md): the author is not one the reader mutes, by the one condition of
 * relation-filters.ts (`except` does not apply to it). Walking post_tags, the author is the post's,
 * found by posts' primary key.
 */
export function notMutedBy(
  userId: string,
  except?: string,
  postId: 'posts.id' | 'post_tags.post_id' = 'posts.id',
): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  const authorId =
    postId === 'posts.id'
      ? sql.ref<string>('posts.author_id')
      : eb
          .selectFrom('posts as tagged_post')
          .select('tagged_post.author_id')
          .whereRef('tagged_post.id', '=', sql.ref(postId))
          .$asScalar();
  const tagsNotMuted = eb.not(
    eb.exists(
      eb
        .selectFrom('post_tags as own_tag')
        .innerJoin('tag_prefs', 'tag_prefs.tag', 'own_tag.tag')
        .select(sql`1`.as('muted'))
        .where('own_tag.post_id', '=', sql.ref<string>(postId))
        .where('tag_prefs.user_id', '=', userId)
        .where('tag_prefs.kind', '=', 'mute')
        .$if(except !== undefined, (query) => query.where('own_tag.tag', '<>', except ?? '')),
    ),
  );
  return eb.and([tagsNotMuted, authorNotMutedBy(userId, authorId)]);
}
