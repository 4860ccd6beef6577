import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * One row per Idempotency-Key a user sent to a creating route (createpost, createnotice,
 * comment): claimed before the work, completed with the reply after it. The primary key lets one
 * request of several identical ones claim the key; the others replay its reply or are told it is
 * still in progress. See docs/decisions/022-idempotency-keys.md.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    // No foreign key: a key is worth nothing after 24 h, and one would stop `npm run seed -- --reset`
    // from truncating users on PostgreSQL.
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('route', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    // sha256 of the request (route parameters and body): the same key with another request is refused.
    .addColumn('request_hash', 'text', (col) => col.notNull())
    // Null while the first request is in progress.
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'route', 'key'])
    .execute();
  // Expired keys are deleted by age.
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
