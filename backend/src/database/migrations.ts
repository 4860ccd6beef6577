import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './database.types';
import { withSqliteMigrationLock } from './sqlite-migration-lock';
import { withoutStatementTimeout } from './statement-timeout';
import * as initialSchema from './migrations/2026-11-21T06-00-00-initial-schema';
import * as likesWithoutRowid from './migrations/2026-11-21T12-00-00-likes-without-rowid';
import * as usersTokenVersion from './migrations/2026-11-21T12-10-00-users-token-version';
import * as imageReferenceIndexes from './migrations/2026-11-21T12-30-00-image-reference-indexes';
import * as appSettings from './migrations/2026-11-25T20-00-00-app-settings';
import * as idempotencyKeys from './migrations/2026-11-25T20-10-00-idempotency-keys';
import * as postRevisions from './migrations/2026-11-25T22-10-00-post-revisions';

/**
 * The migrations, listed by hand so the build needs no file-system scanning. Names are
 * timestamps: append new ones at the end, never rename or edit a landed one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T06-00-00-initial-schema': initialSchema,
  '2026-11-21T12-00-00-likes-without-rowid': likesWithoutRowid,
  '2026-11-21T12-10-00-users-token-version': usersTokenVersion,
  '2026-11-21T12-30-00-image-reference-indexes': imageReferenceIndexes,
  '2026-11-25T20-00-00-app-settings': appSettings,
  '2026-11-25T20-10-00-idempotency-keys': idempotencyKeys,
  '2026-11-25T22-10-00-post-revisions': postRevisions,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/** Every migration this build knows, oldest first (a backup records the newest it holds). */
export function migrationNames(): string[] {
  return Object.keys(MIGRATIONS).sort();
}

/**
 * Instances starting together migrate once: on PostgreSQL Kysely's Migrator holds an advisory
 * lock while it migrates (the others wait, then find nothing pending); on SQLite it takes none,
 * so a lock file beside the database does (sqlite-migration-lock.ts).
 */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  if (dialect === 'sqlite') return withSqliteMigrationLock(db, () => runMigrator(db, dialect));
  // Without DATABASE_STATEMENT_TIMEOUT_MS: an index build over a big table, or waiting for the
  // instance that holds the lock, takes longer than any request may.
  return withoutStatementTimeout(db, (connection) => runMigrator(connection, dialect));
}

async function runMigrator(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  const { error, results } = await new Migrator({
    db,
    provider,
    // Kysely looks for its bookkeeping tables in every schema it can see; pin them to the schema
    // the connection works in (search_path), so two TechIt databases in one PostgreSQL database
    // never share migration state.
    migrationTableSchema: dialect === 'postgres' ? await currentSchema(db) : undefined,
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('The PostgreSQL connection has no current schema; check search_path');
  return schema;
}
