import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Markdown rendered once, when written (docs/decisions/028-stored-html.md): a post's optional
 * `body` (Markdown source, '' when none) and the HTML of its desc and body, a comment's HTML and a
 * notice's HTML, each row with the renderer version it was rendered with. Rows written before
 * this migration have no HTML (null) and version 0 until `npm run rerender` fills them; until
 * then replies carry their escaped source with line breaks. One column per statement: SQLite's
 * ALTER TABLE adds one at a time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('posts')
    .addColumn('body', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('posts').addColumn('desc_html', 'text').execute();
  await db.schema.alterTable('posts').addColumn('body_html', 'text').execute();
  for (const table of ['posts', 'comments', 'notices']) {
    await db.schema
      .alterTable(table)
      .addColumn('render_version', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable('comments').addColumn('text_html', 'text').execute();
  await db.schema.alterTable('notices').addColumn('desc_html', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notices').dropColumn('desc_html').execute();
  await db.schema.alterTable('comments').dropColumn('text_html').execute();
  for (const table of ['notices', 'comments', 'posts']) {
    await db.schema.alterTable(table).dropColumn('render_version').execute();
  }
  await db.schema.alterTable('posts').dropColumn('body_html').execute();
  await db.schema.alterTable('posts').dropColumn('desc_html').execute();
  await db.schema.alterTable('posts').dropColumn('body').execute();
}
