import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Bookmarks (issue 19, docs/decisions/043-bookmarks.md): one row per post a user saved, private
 * to that user. The primary key (user_id, post_id) makes a second save a no-op and answers "which
 * of this page's posts has the reader saved" from the key alone. The reader's list, newest saved
 * first, walks (user_id, created_at, post_id): a keyset page reads only its rows. Both foreign
 * keys cascade, so a deleted post or account takes its bookmarks with it; post_id's cascade is
 * served by (post_id) below.
 *
 * On SQLite the table is WITHOUT ROWID like likes (migration 2026-11-21T12-00-00): stored in its
 * primary key's b-tree, so a save writes two b-trees, not three.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('bookmarks')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('post_id', 'text', (col) => col.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('bookmarks_pkey', ['user_id', 'post_id'])
    .$call((builder) => (sqlite ? builder.modifyEnd(sql`without rowid`) : builder))
    .execute();
  // The reader's bookmarks, newest saved first (keyset on created_at, post_id).
  await db.schema
    .createIndex('bookmarks_user_created_idx')
    .on('bookmarks')
    .columns(['user_id', 'created_at', 'post_id'])
    .execute();
  // Deleting a post cascades to its bookmarks: without this, every post delete would scan them.
  await db.schema.createIndex('bookmarks_post_idx').on('bookmarks').column('post_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bookmarks').execute();
}
