import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { PageRequest } from '../common/cursor';
import { DATABASE } from '../database/database.tokens';
import type { Db, DraftRow, Executor, NewDraft } from '../database/database.types';

/** The only place that reads or writes drafts. */
@Injectable()
export class DraftsRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** A draft only as its owner sees it: someone else's is as absent as a missing one. */
  findOwn(id: string, userId: string): Promise<DraftRow | undefined> {
    return this.db
      .selectFrom('drafts')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  findEditDraft(postId: string, userId: string): Promise<DraftRow | undefined> {
    return this.db
      .selectFrom('drafts')
      .selectAll()
      .where('post_id', '=', postId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * The owner's drafts, most recently saved first by (updated_at, id): the same opaque cursor as
   * the other lists (common/cursor.ts), keyed on updated_at, which the (user_id, updated_at, id)
   * index serves. A draft saved while someone pages moves to the top; the page after the cursor
   * still never repeats one.
   */
  listOwn(userId: string, page: PageRequest): Promise<DraftRow[]> {
    let query = this.db.selectFrom('drafts').selectAll().where('user_id', '=', userId);
    if ('keyset' in page) {
      const { createdAt: updatedAt, id } = page.keyset;
      query = query.where((eb) => eb(eb.refTuple('updated_at', 'id'), '<', eb.tuple(updatedAt, id)));
    }
    query = query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(page.limit);
    return ('offset' in page && page.offset > 0 ? query.offset(page.offset) : query).execute();
  }

  /** The author of a post, or undefined when there is no such post (for edit drafts). */
  async postAuthor(postId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('posts').select('author_id').where('id', '=', postId).executeTakeFirst();
    return row?.author_id;
  }

  async insert(draft: NewDraft): Promise<void> {
    await this.db.insertInto('drafts').values(draft).execute();
  }

  /**
   * Saves only if the stored version is still `version` (one statement, so two saves racing from
   * the same version cannot both win); the saved row, or undefined when it was not saved.
   */
  saveIfVersion(
    id: string,
    userId: string,
    version: number,
    change: { fields: string; updated_at: string },
  ): Promise<DraftRow | undefined> {
    return this.db
      .updateTable('drafts')
      .set({ fields: change.fields, updated_at: change.updated_at, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('version', '=', version)
      .returningAll()
      .executeTakeFirst();
  }

  /** True when a draft of this owner was deleted. */
  async deleteOwn(id: string, userId: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .deleteFrom('drafts')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
