import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { BackupError } from './backup-error';

/**
 * Pages per step of SQLite's online backup: all of them. A step reads one snapshot under a
 * shared lock (which in WAL mode never blocks the server's writes), while a copy made in small
 * steps starts over whenever the server commits between two of them, and so may never finish
 * under a steady write load.
 */
const ALL_PAGES = 0x7fffffff;

/** A consistent copy of a live database through the online backup API (better-sqlite3's backup()). */
export async function copyLiveDatabase(source: string, destination: string): Promise<void> {
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source} (nothing to back up)`);
  const db = new SQLite(source, { fileMustExist: true });
  try {
    await db.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
}

/**
 * Checks a copy and makes it one self-contained file (rollback journal instead of WAL, so no
 * -wal file belongs with it). Answers the newest migration it holds.
 */
export function checkCopy(file: string): { schemaVersion: string } {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const problems = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    if (problems.length !== 1 || problems[0].integrity_check !== 'ok') {
      throw new BackupError(
        `The database copy failed SQLite's integrity check: ${problems
          .slice(0, 5)
          .map((row) => row.integrity_check)
          .join('; ')}`,
      );
    }
    return { schemaVersion: newestMigration(db) };
  } finally {
    db.close();
  }
}

function newestMigration(db: SQLite.Database): string {
  let row: { name: string } | undefined;
  try {
    row = db.prepare('SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1').get() as typeof row;
  } catch {
    row = undefined;
  }
  if (!row) throw new BackupError('The database holds no TechIt schema (no migrations were ever applied)');
  return row.name;
}

/**
 * Refuses to go on while another connection (a running server) has the database open, cheaply:
 * an exclusive lock cannot be had then. Closing this last connection checkpoints any WAL left by
 * a crash into the old file and deletes it, so no stale WAL can be replayed onto the new file.
 */
export function assertNotInUse(file: string): void {
  if (!existsSync(file)) return;
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new BackupError(`The database ${file} is in use: stop the server first, then restore`);
    }
    throw error;
  } finally {
    db.close();
  }
}
