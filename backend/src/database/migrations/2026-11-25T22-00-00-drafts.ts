import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Unpublished posts and notices, saved by the editor every few seconds (issue 16). The fields are
 * one JSON text column: a draft is only ever read whole by its owner, never searched by content,
 * its kinds hold different fields, and a field the editor gains later needs no migration. See
 * docs/decisions/026-drafts.md.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('drafts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // A user's drafts go with the user, an edit draft with its post.
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('post_id', 'text', (col) => col.references('posts.id').onDelete('cascade'))
    // JSON object of the draft's fields, exactly as typed.
    .addColumn('fields', 'text', (col) => col.notNull().defaultTo('{}'))
    // Raised by every save; a save naming another version is refused (optimistic locking).
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // "Your drafts, most recently saved first", read backwards.
  await db.schema
    .createIndex('drafts_user_updated_idx')
    .on('drafts')
    .columns(['user_id', 'updated_at', 'id'])
    .execute();
  // One edit draft per post and user (the edit page has one); NULL post ids (new posts and
  // notices) are distinct on both databases, so they are not limited. Leading with post_id it
  // also serves the cascade when a post is deleted.
  await db.schema.createIndex('drafts_post_user_key').on('drafts').unique().columns(['post_id', 'user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('drafts').execute();
}
