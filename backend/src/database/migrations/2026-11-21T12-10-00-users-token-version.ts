import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Every token carries the version its user had when it was signed (`ver`); POST /api/logout-all
 * raises the version, and from then on the older tokens no longer match. Existing accounts start
 * at 0, which is also what a token without `ver` (signed before this column existed) counts as,
 * so deploying this logs nobody out. See docs/decisions/013-token-version-for-sign-out-everywhere.md.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('token_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('token_version').execute();
}
