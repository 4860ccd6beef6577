import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Accounts people control (issue 20, docs/decisions/049-accounts-people-control.md): when each
 * user last started a data export (POST /api/export, one a day). A row per user who ever exported,
 * so checking and claiming the day's export is one conditional upsert every instance shares; it
 * goes with the account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_exports')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('exported_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_exports').execute();
}
