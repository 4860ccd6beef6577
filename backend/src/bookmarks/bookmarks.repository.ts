import { Inject, Injectable } from '@nestjs/common';
import { type RawBuilder, sql } from 'kysely';
import type { Keyset } from '../common/cursor';
import { notRemoved } from '../moderation/removal-filters';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';

/** One row of the reader's list: which post, saved when. */
export interface BookmarkRow {
  post_id: string;
  created_at: string;
}

/** A page of the reader's bookmarks, newest saved first. */
export interface BookmarkPageRequest {
  limit: number;
  /** The (created_at, post_id) of the last bookmark of the page before. */
  after?: Keyset;
  /** Only posts carrying this tag (a normalised name). */
  tag?: string;
  /** Only posts matching a search (SearchService.postsMatching: a condition on the row `posts`). */
  matching?: RawBuilder<unknown>;
}

/** PostgreSQL's foreign_key_violation: the post went between the insert's read and its check. */
const FOREIGN_KEY_VIOLATION = '23503';

/** The only place that reads or writes bookmarks (docs/decisions/043-bookmarks.md). */
@Injectable()
export class BookmarksRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /**
   * Saves the post for the user, once: one statement that inserts only when the post exists and
   * the user has not saved it yet (a second save keeps the first's time, so the list's order and
   * a cursor taken before stay true). 'missing' when there is no such post.
   */
  async add(userId: string, postId: string, at: string): Promise<'added' | 'kept' | 'missing'> {
    try {
      const result = await this.db
        .insertInto('bookmarks')
        .columns(['user_id', 'post_id', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('posts')
            .select([
              sql<string>`cast(${userId} as text)`.as('user_id'),
              'posts.id',
              sql<string>`cast(${at} as text)`.as('created_at'),
            ])
            .where('posts.id', '=', postId),
        )
        .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return 'added';
    } catch (error) {
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return 'missing';
      throw error;
    }
    return (await this.postExists(postId)) ? 'kept' : 'missing';
  }

  /** Whether a bookmark was removed. */
  async remove(userId: string, postId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('bookmarks')
      .where('user_id', '=', userId)
      .where('post_id', '=', postId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async postExists(postId: string): Promise<boolean> {
    return (await this.db.selectFrom('posts').select('id').where('id', '=', postId).executeTakeFirst()) !== undefined;
  }

  /**
   * Which of these posts the user saved: one statement on the primary key (user_id, post_id),
   * like the compact view's own-like lookup. Every Post reply to a signed-in reader asks it once
   * for its page.
   */
  async bookmarkedBy(postIds: string[], userId: string): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('bookmarks')
      .select('post_id')
      .where('user_id', '=', userId)
      .where('post_id', 'in', postIds)
      .execute();
    return new Set(rows.map((row) => row.post_id));
  }

  /**
   * The user's bookmarks newest saved first, walking (user_id, created_at, post_id): a keyset
   * page reads its rows and stops. The filters are checked per bookmark walked (post_tags' key,
   * the search index by rowid or post id), so their cost follows the reader's list, not the site.
   */
  page(userId: string, request: BookmarkPageRequest): Promise<BookmarkRow[]> {
    let rows = this.db
      .selectFrom('bookmarks')
      .innerJoin('posts', 'posts.id', 'bookmarks.post_id')
      .select(['bookmarks.post_id', 'bookmarks.created_at'])
      .where('bookmarks.user_id', '=', userId)
      .where(notRemoved());
    const { after, tag, matching } = request;
    if (after) {
      rows = rows.where((eb) =>
        eb(eb.refTuple('bookmarks.created_at', 'bookmarks.post_id'), '<', eb.tuple(after.createdAt, after.id)),
      );
    }
    if (tag !== undefined) {
      rows = rows.where((eb) =>
        eb.exists(
          eb
            .selectFrom('post_tags')
            .select('post_tags.post_id')
            .whereRef('post_tags.post_id', '=', 'bookmarks.post_id')
            .where('post_tags.tag', '=', tag),
        ),
      );
    }
    // The search's condition opens with `and`; `true` gives it something to follow.
    if (matching) rows = rows.where(sql<boolean>`true ${matching}`);
    return rows
      .orderBy('bookmarks.created_at', 'desc')
      .orderBy('bookmarks.post_id', 'desc')
      .limit(request.limit)
      .execute();
  }
}
