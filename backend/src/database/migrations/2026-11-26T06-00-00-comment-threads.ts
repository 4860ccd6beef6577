import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Threaded comments (issue 18): `parent_id` is the comment a reply answers (same post; null at the
 * top), `edited_at` when its author last changed the text, and `deleted` (0/1) marks the
 * "[deleted]" placeholder kept in place of a deleted comment that still has replies (its text is
 * emptied then). Every existing comment is a top-level, unedited, live comment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('parent_id', 'text', (col) => col.references('comments.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('comments').addColumn('edited_at', 'text').execute();
  await db.schema
    .alterTable('comments')
    .addColumn('deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // A comment's replies: whether a deleted comment keeps a placeholder, and the cascade above.
  await db.schema.createIndex('comments_parent_idx').on('comments').column('parent_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('comments_parent_idx').execute();
  await db.schema.alterTable('comments').dropColumn('deleted').execute();
  await db.schema.alterTable('comments').dropColumn('edited_at').execute();
  await db.schema.alterTable('comments').dropColumn('parent_id').execute();
}
