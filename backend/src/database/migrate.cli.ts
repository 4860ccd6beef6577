import { loadConfig } from '../config/app-config';
import { createDatabase } from './create-database';
import { migrateToLatest } from './migrations';

/** `npm run migrate`: bring the configured database up to date without starting the server. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { db, dialect } = createDatabase(config);
  try {
    const applied = await migrateToLatest(db, dialect);
    console.log(
      applied.length ? `Applied on ${dialect}: ${applied.join(', ')}` : `The ${dialect} database is up to date`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
