import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Settings the application itself generates and every instance on the database must share; the
 * first is the JWT secret when JWT_SECRET is unset (config/jwt-secret.ts,
 * docs/decisions/021-jwt-secret-kept-in-the-database.md). The primary key is what makes "insert
 * if absent, then read back" give every instance starting at once the same value.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_settings').execute();
}
