import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { authorNotMutedBy } from '../blocks/relation-filters';
import type { PageRequest } from '../common/cursor';
import { DATABASE } from '../database/database.tokens';
import { keysetPage } from '../database/keyset-page';
import type { Db, Executor, NewNotice, NoticeRow } from '../database/database.types';

export type NoticeWithAuthor = NoticeRow & { author_user_name: string; author_pic: string };

/** The only place that reads or writes notices. */
@Injectable()
export class NoticesRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  findById(id: string): Promise<NoticeWithAuthor | undefined> {
    return this.withAuthor().where('notices.id', '=', id).executeTakeFirst();
  }

  /**
   * Newest first by (created_at, id); authorId narrows to one user's notices; mutedBy leaves out
   * the notices of the users that reader mutes.
   */
  list(authorId: string | null, page: PageRequest, mutedBy?: string): Promise<NoticeWithAuthor[]> {
    let query = this.withAuthor();
    if (authorId) query = query.where('notices.author_id', '=', authorId);
    if (mutedBy !== undefined) query = query.where(authorNotMutedBy(mutedBy, sql.ref<string>('notices.author_id')));
    return keysetPage(query, 'notices', page).execute();
  }

  async insert(notice: NewNotice, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('notices').values(notice).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('notices').where('id', '=', id).execute();
  }

  private withAuthor() {
    return this.db
      .selectFrom('notices')
      .innerJoin('users', 'users.id', 'notices.author_id')
      .selectAll('notices')
      .select(['users.user_name as author_user_name', 'users.pic as author_pic']);
  }
}
