import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './database.types';
import * as initialSchema from './migrations/2026-11-21T06-00-00-initial-schema';

/**
 * The migrations, listed by hand so the build needs no file-system scanning. Names are
 * timestamps: append new ones at the end, never rename or edit a landed one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T06-00-00-initial-schema': initialSchema,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
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
