import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
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

/** The tables with one rendered text (posts have two, read above): its source and HTML columns. */
const TEXT_COLUMNS = {
  comments: { source: 'text', html: 'text_html' },
  notices: { source: 'description', html: 'desc_html' },
} as const;
export type TextTable = keyof typeof TEXT_COLUMNS;

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

  /** A comment's or a notice's stale texts: the same walk as stalePosts over its one text column. */
  staleTexts(table: TextTable, version: number, afterId: string, limit: number): Promise<StaleText[]> {
    const { source, html } = TEXT_COLUMNS[table];
    return this.db
      .selectFrom(table)
      .select(['id', sql<string>`${sql.ref(source)}`.as('source')])
      .where('id', '>', afterId)
      .where((eb) => eb.or([eb('render_version', '<>', version), eb(this.db.dynamic.ref(html), 'is', null)]))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async storeText(ex: Executor, table: TextTable, text: StaleText, html: string, version: number): Promise<boolean> {
    const columns = TEXT_COLUMNS[table];
    const result = await ex
      .updateTable(table)
      .set(this.db.dynamic.ref(columns.html), html)
      .set('render_version', version)
      .where('id', '=', text.id)
      .where(this.db.dynamic.ref(columns.source), '=', text.source)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
