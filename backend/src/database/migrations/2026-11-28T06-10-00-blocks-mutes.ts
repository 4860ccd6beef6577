import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Blocks and mutes between users (issue 20, docs/decisions/048-blocks-and-mutes.md): one row per
 * (user, other user) for each. The primary key (user_id, other_id) makes a second block or mute a
 * no-op and answers "does A block B" / "does the reader mute this author" from the key alone,
 * which is how every check and every feed's mute condition probes them. The reader's own list,
 * newest first, walks (user_id, created_at, other_id). blocks also has (other_id, user_id): "who
 * blocks this writer among these people" (the mentions of a new comment) reads it by the blocked
 * side. Both foreign keys cascade: a deleted account takes its blocks and mutes with it.
 *
 * On SQLite both tables are WITHOUT ROWID like likes and bookmarks: stored in the primary key's
 * b-tree.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const table of ['blocks', 'mutes']) {
    await db.schema
      .createTable(table)
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('other_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint(`${table}_pkey`, ['user_id', 'other_id'])
      .$call((builder) => (sqlite ? builder.modifyEnd(sql`without rowid`) : builder))
      .execute();
    await db.schema
      .createIndex(`${table}_user_created_idx`)
      .on(table)
      .columns(['user_id', 'created_at', 'other_id'])
      .execute();
    // The cascade of a deleted account by other_id, and (blocks) "who blocks this writer".
    await db.schema.createIndex(`${table}_other_idx`).on(table).columns(['other_id', 'user_id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mutes').execute();
  await db.schema.dropTable('blocks').execute();
}
