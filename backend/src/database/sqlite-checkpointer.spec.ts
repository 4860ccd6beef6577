import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle, SQLITE_FILE } from './create-database';

/** Writes about 2 MB in small commits: far below the 40 MB backstop, so only a checkpointer copies it. */
async function writeRows(handle: DatabaseHandle): Promise<void> {
  await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
  for (let row = 0; row < 500; row += 1) {
    await sql`insert into notes (body) values (${'x'.repeat(4000)})`.execute(handle.db);
  }
}

async function fileSizeAfter(backgroundCheckpoints: boolean): Promise<{ database: number; wal: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'techit-checkpoint-'));
  const handle = createDatabase({ databaseUrl: null, dataDir, backgroundCheckpoints });
  try {
    await writeRows(handle);
    await sleep(1000);
    return {
      database: statSync(join(dataDir, SQLITE_FILE)).size,
      wal: statSync(join(dataDir, `${SQLITE_FILE}-wal`)).size,
    };
  } finally {
    await handle.db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('SQLite checkpoints in the background', () => {
  it('copies committed pages into the database file while the app goes on writing', async () => {
    const withThread = await fileSizeAfter(true);
    expect(withThread.database).toBeGreaterThan(2_000_000);
  });

  // Linux shows a process's open files in /proc; elsewhere there is nothing to look at.
  (existsSync('/proc/self/fd') ? it : it.skip)(
    "has closed its own connection to the file by the time the app's is closed",
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'techit-checkpoint-'));
      const openFilesInDataDir = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dataDir);
          } catch {
            return false; // closed while listing
          }
        }).length;
      try {
        const handle = createDatabase({ databaseUrl: null, dataDir, backgroundCheckpoints: true });
        await writeRows(handle);
        await sleep(300);
        expect(openFilesInDataDir()).toBeGreaterThan(0);
        await handle.db.destroy();
        expect(openFilesInDataDir()).toBe(0);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('leaves them in the WAL without it (the backstop is far off), which is what it takes over', async () => {
    const without = await fileSizeAfter(false);
    // SQLite's own automatic checkpoint (1,000 pages) may have run once; most pages still wait.
    expect(without.wal).toBeGreaterThan(1_000_000);
  });
});
