import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Password reset by email (issue 20, docs/decisions/050-password-reset.md): one row per reset link
 * still outstanding. Only the SHA-256 of the link's token is kept (the primary key): a copy of the
 * database (a backup) holds no usable link. A link is used up by deleting its row, and with it
 * every other row of its user; expires_at (ISO 8601 text like every timestamp) bounds it to an
 * hour. Deleting the account takes its rows with it (cascade), found through (user_id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_resets').execute();
}
