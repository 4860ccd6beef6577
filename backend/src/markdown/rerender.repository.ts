import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '../database/database.tokens';
import type { Db, Executor } from '../database/database.types';

/** A post whose stored HTML is missing or from another renderer version. */
export interface StalePost {
  id: string;
  description: string;
  body: string;
}

/** A comment's or a notice's text whose stored HTML is missing or from another renderer version. */
export interface StaleText {
  id: string;
  source: string;
}

/**
 * The rerender's reads and writes of the three tables that store HTML (posts, comments, notices):
 * one place, beside the renderer, rather than a method in each feature's repository, because it
 * touches only the render columns and runs only from `npm run rerender`.
 *
 * Each batch is read in id order after the last id seen, so a run walks every table once. A row
 * is written only if its source is still the one rendered: an edit that landed meanwhile rendered
 * its own HTML, which is not overwritten.
 */
@Injectable()
export class RerenderRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  stalePosts(version: number, afterId: string, limit: number): Promise<StalePost[]> {
    return this.db
      .selectFrom('posts')
      .select(['id', 'description', 'body'])
      .where('id', '>', afterId)
      .where((eb) =>
        eb.or([eb('render_version', '<>', version), eb('desc_html', 'is', null), eb('body_html', 'is', null)]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async storePost(ex: Executor, post: StalePost, html: { desc: string; body: string }, version: number) {
    const result = await ex
      .updateTable('posts')
      .set({ desc_html: html.desc, body_html: html.body, render_version: version })
      .where('id', '=', post.id)
      .where('description', '=', post.description)
      .where('body', '=', post.body)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  staleComments(version: number, afterId: string, limit: number): Promise<StaleText[]> {
    return this.db
      .selectFrom('comments')
      .select(['id', 'text as source'])
      .where('id', '>', afterId)
      .where((eb) => eb.or([eb('render_version', '<>', version), eb('text_html', 'is', null)]))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async storeComment(ex: Executor, comment: StaleText, html: string, version: number): Promise<boolean> {
    const result = await ex
      .updateTable('comments')
      .set({ text_html: html, render_version: version })
      .where('id', '=', comment.id)
      .where('text', '=', comment.source)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  staleNotices(version: number, afterId: string, limit: number): Promise<StaleText[]> {
    return this.db
      .selectFrom('notices')
      .select(['id', 'description as source'])
      .where('id', '>', afterId)
      .where((eb) => eb.or([eb('render_version', '<>', version), eb('desc_html', 'is', null)]))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async storeNotice(ex: Executor, notice: StaleText, html: string, version: number): Promise<boolean> {
    const result = await ex
      .updateTable('notices')
      .set({ desc_html: html, render_version: version })
      .where('id', '=', notice.id)
      .where('description', '=', notice.source)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
