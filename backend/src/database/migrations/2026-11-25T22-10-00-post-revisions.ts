import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Edit history (docs/decisions/027-post-revisions.md): one row per edit that changed something,
 * holding only the fields that changed, each as { from, to } (JSON, keyed by the API's field
 * names), so "what changed" is shown without comparing neighbouring rows. `posts.edited_at` is
 * the time of the last such edit; rows written before this migration keep it null (their
 * updated_at may have been moved by an import, which is no edit anyone saw).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('edited_at', 'text').execute();
  await db.schema
    .createTable('post_revisions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('post_id', 'text', (col) => col.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('editor_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    // {"title": {"from": "…", "to": "…"}, …}: only the fields this edit changed.
    .addColumn('changes', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  // A post's history, newest first (and the cascade's lookup when the post goes).
  await db.schema
    .createIndex('post_revisions_post_created_idx')
    .on('post_revisions')
    .columns(['post_id', 'created_at', 'id'])
    .execute();
  // The cascade when a user goes (an editor is a user).
  await db.schema.createIndex('post_revisions_editor_idx').on('post_revisions').column('editor_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('post_revisions').execute();
  await db.schema.alterTable('posts').dropColumn('edited_at').execute();
}
