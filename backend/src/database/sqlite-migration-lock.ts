import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';

/** A migration that copies every row of a big table can take minutes; a lock held longer than this is a stuck process. */
const WAIT_LIMIT_MS = 30 * 60_000;
const POLL_MS = 50;

/**
 * Runs `migrate` while holding an exclusive lock on a file beside the SQLite database, so that two
 * processes starting together on one file migrate it once: the second waits, then finds nothing
 * pending. Kysely's Migrator locks on PostgreSQL (an advisory lock) but not on SQLite, where it
 * assumes a single connection; without this the second process would run a pending migration
 * again and fail half-way ("table already exists"), or, with a migration that copies a table,
 * worse.
 *
 * The lock is SQLite's own (BEGIN EXCLUSIVE on an empty side file), taken without blocking and
 * retried: the operating system drops it when the process dies, so a crash mid-migration never
 * leaves a stale lock behind, and waiting never blocks the event loop (two instances in one
 * process, as in the tests, wait for each other too). The database itself cannot carry the lock:
 * a migration opens transactions of its own on that connection.
 */
export async function withSqliteMigrationLock<T>(db: Kysely<unknown>, migrate: () => Promise<T>): Promise<T> {
  const file = await databaseFile(db);
  // An in-memory database belongs to one connection: nobody to race.
  if (file === '') return migrate();
  const lock = new SQLite(`${file}.migration-lock`, { timeout: 0 });
  try {
    await acquire(lock, file);
    try {
      return await migrate();
    } finally {
      lock.exec('ROLLBACK');
    }
  } finally {
    lock.close();
  }
}

async function acquire(lock: SQLite.Database, file: string): Promise<void> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    try {
      lock.exec('BEGIN EXCLUSIVE');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
      if (Date.now() > deadline) {
        throw new Error(
          `Another process has been migrating ${file} for over ${WAIT_LIMIT_MS / 60_000} minutes; stop it, or wait and start again`,
        );
      }
      await sleep(POLL_MS);
    }
  }
}

async function databaseFile(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  return rows.find((row) => row.name === 'main')?.file ?? '';
}
