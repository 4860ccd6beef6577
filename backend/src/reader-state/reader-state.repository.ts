import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';
import { PreparedQuery } from '../database/prepared-query';

/** What a signed-in reader's own state is among the posts of one cached reply. */
export interface ReaderState {
  /**
   * The reader mutes a user or a tag, or blocks someone: their replies are not a visitor's plus
   * likes and bookmarks (lists leave muted posts out, comments carry `muted`, a profile `viewer`),
   * so they are built in full.
   */
  filters: boolean;
  liked: Set<string>;
  bookmarked: Set<string>;
}

type Row = { kind: string; post_id: string };

/**
 * The cached signed-in read's one statement (docs/decisions/051-signed-in-read-cache.md): whether
 * the reader has personal filters, and which of a reply's posts they like and saved. Each part
 * probes a primary key or the user's own few rows: likes (user_id, post_id) through
 * likes_user_idx, bookmarks' primary key (user_id, post_id), mutes' and blocks' (user_id, other_id),
 * tag_prefs (user_id, tag).
 */
@Injectable()
export class ReaderStateRepository {
  /** One prepared statement per number of posts (a page has up to 100; most have 4–20). */
  private readonly byCount = new Map<number, PreparedQuery<Record<string, string>, Row>>();

  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async stateAmong(userId: string, postIds: readonly string[]): Promise<ReaderState> {
    const rows = await this.queryFor(postIds.length).rows(this.db, paramsOf(userId, postIds));
    const state: ReaderState = { filters: false, liked: new Set(), bookmarked: new Set() };
    for (const row of rows) {
      if (row.kind === 'f') state.filters = true;
      else if (row.kind === 'l') state.liked.add(row.post_id);
      else state.bookmarked.add(row.post_id);
    }
    return state;
  }

  private queryFor(count: number): PreparedQuery<Record<string, string>, Row> {
    let query = this.byCount.get(count);
    if (!query) {
      query = new PreparedQuery((ex, p: Record<string, string>) => {
        const ids = Array.from({ length: count }, (_, index) => p[`post${index}`]);
        const filters = ex
          .selectNoFrom(() => [sql<string>`'f'`.as('kind'), sql<string>`''`.as('post_id')])
          .where((eb) =>
            eb.or([
              eb.exists(eb.selectFrom('mutes').select('mutes.user_id').where('mutes.user_id', '=', p.user)),
              eb.exists(eb.selectFrom('blocks').select('blocks.user_id').where('blocks.user_id', '=', p.user)),
              eb.exists(
                eb
                  .selectFrom('tag_prefs')
                  .select('tag_prefs.user_id')
                  .where('tag_prefs.user_id', '=', p.user)
                  .where('tag_prefs.kind', '=', 'mute'),
              ),
            ]),
          );
        if (count === 0) return filters;
        return filters
          .unionAll(
            ex
              .selectFrom('likes')
              .select([sql<string>`'l'`.as('kind'), 'likes.post_id'])
              .where('likes.user_id', '=', p.user)
              .where('likes.post_id', 'in', ids),
          )
          .unionAll(
            ex
              .selectFrom('bookmarks')
              .select([sql<string>`'b'`.as('kind'), 'bookmarks.post_id'])
              .where('bookmarks.user_id', '=', p.user)
              .where('bookmarks.post_id', 'in', ids),
          );
      });
      this.byCount.set(count, query);
    }
    return query;
  }
}

function paramsOf(userId: string, postIds: readonly string[]): Record<string, string> {
  const params: Record<string, string> = { user: userId };
  postIds.forEach((id, index) => (params[`post${index}`] = id));
  return params;
}
