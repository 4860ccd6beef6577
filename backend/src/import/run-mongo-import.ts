import { resolve } from 'node:path';
import { createDatabase, type DatabaseOptions } from '../database/create-database';
import { UsersRepository } from '../users/users.repository';
import { renderImportedTexts } from './mongo-import-html';
import type { Dialect } from '../database/database.types';
import { migrateToLatest } from '../database/migrations';
import { type Collection, COLLECTIONS, readMongoExport } from './mongo-export-reader';
import type { Adjustment } from './mongo-import-report';
import { planImport, userLookupKeys } from './mongo-import.planner';
import { IMPORT_TABLES, type ImportTable, MongoImportRepository } from './mongo-import.repository';

export interface MongoImportOptions {
  /** Plan and count everything inside the transaction, then roll it back. */
  dryRun?: boolean;
}

export interface MongoImportSummary {
  folder: string;
  dialect: Dialect;
  dryRun: boolean;
  /** Documents read per file. */
  read: Record<Collection, number>;
  /** Rows this run wrote (or, in a dry run, would write). */
  inserted: Record<ImportTable, number>;
  /** Rows the export maps to that were in the database already (an earlier run): left as they are. */
  alreadyPresent: Record<ImportTable, number>;
  /** Posts whose stored likes/comments/commenters counts were set to what their rows say. */
  countersRebuilt: number;
  adjustments: Adjustment[];
  durationMs: number;
}

class DryRunRollback extends Error {
  constructor(readonly summary: Omit<MongoImportSummary, 'durationMs'>) {
    super('dry run');
  }
}

/**
 * Imports a mongoexport folder of the original TechIt into the database the server would open
 * for `target` (migrated first). The files are read and checked before the database is touched,
 * and the writing is one transaction, so a failure leaves nothing behind; rows already present
 * (keyed by the kept ids) are left alone, so running it again changes nothing.
 */
export async function importMongoExport(
  target: DatabaseOptions,
  folder: string,
  options: MongoImportOptions = {},
): Promise<MongoImportSummary> {
  const started = performance.now();
  const data = await readMongoExport(folder);
  const handle = createDatabase(target);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    const repository = new MongoImportRepository(handle.db, handle.dialect);
    let summary: Omit<MongoImportSummary, 'durationMs'>;
    try {
      summary = await repository.transaction(async (trx) => {
        const existing = await repository.usersMatching(trx, userLookupKeys(data));
        const { rows, report } = planImport(data, existing);
        const users = new UsersRepository(handle.db);
        await renderImportedTexts(rows, (names) => users.idsByUserNames(names, trx));
        const inserted = await repository.insertAll(trx, rows);
        const countersRebuilt = await repository.rebuildPostCounters(
          trx,
          rows.posts.map((post) => post.id),
        );
        const result = {
          folder: resolve(folder),
          dialect: handle.dialect,
          dryRun: options.dryRun === true,
          read: mapKeys(COLLECTIONS, (collection) => data[collection].length),
          inserted,
          alreadyPresent: mapKeys(IMPORT_TABLES, (table) => rows[table].length - inserted[table]),
          countersRebuilt,
          adjustments: report.list(),
        };
        if (options.dryRun) throw new DryRunRollback(result);
        return result;
      });
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
      summary = error.summary;
    }
    if (!summary.dryRun && IMPORT_TABLES.some((table) => summary.inserted[table] > 0)) await repository.analyze();
    return { ...summary, durationMs: Math.round(performance.now() - started) };
  } finally {
    await handle.db.destroy();
  }
}

/** The summary as the CLI prints it: what went in, what was there, and every adjustment with examples. */
export function describeSummary(summary: MongoImportSummary): string[] {
  const tables = (counts: Record<ImportTable, number>): string =>
    IMPORT_TABLES.map((table) => `${counts[table]} ${table}`).join(', ');
  const lines = [
    `Read ${COLLECTIONS.map((collection) => `${summary.read[collection]} ${collection}`).join(', ')} from ${summary.folder}`,
    `${summary.dryRun ? 'Would insert' : 'Inserted'}: ${tables(summary.inserted)}`,
    `Already present (left as they are): ${tables(summary.alreadyPresent)}`,
    `Post counters corrected to match their rows: ${summary.countersRebuilt}`,
  ];
  if (summary.adjustments.length === 0) lines.push('Adjustments: none');
  else {
    lines.push('Adjustments:');
    for (const { count, description, examples } of summary.adjustments) {
      lines.push(`  ${count} ${description} (e.g. ${examples.join(', ')})`);
    }
  }
  lines.push(
    summary.dryRun
      ? `Dry run on ${summary.dialect}: nothing was written (${(summary.durationMs / 1000).toFixed(1)} s)`
      : `Done on ${summary.dialect} in ${(summary.durationMs / 1000).toFixed(1)} s`,
  );
  return lines;
}

function mapKeys<K extends string>(keys: readonly K[], value: (key: K) => number): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, value(key)])) as Record<K, number>;
}
