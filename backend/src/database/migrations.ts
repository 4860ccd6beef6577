import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as initialSchema from './migrations/2026-11-21T06-00-00-initial-schema';

/**
 * The migrations, listed by hand so the build needs no file-system scanning. Names are
 * timestamps: append new ones at the end, never rename or edit a landed one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T06-00-00-initial-schema': initialSchema,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
