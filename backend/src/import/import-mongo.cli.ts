import { existsSync } from 'node:fs';
import { loadConfig } from '../config/app-config';
import { MongoImportError } from './mongo-import-error';
import { describeSummary, importMongoExport } from './run-mongo-import';

const USAGE =
  'Usage: npm run import:mongo -- <folder> [--dry-run]\n' +
  '  <folder> holds users.json, posts.json and notices.json from mongoexport (one document per line or --jsonArray).\n' +
  '  --dry-run reads, checks and reports everything, then writes nothing.';

/**
 * `npm run import:mongo -- <folder>`: the original MERN TechIt's MongoDB export into the
 * configured database (the same DATA_DIR / DATABASE_URL / .env as the server). Any failure prints
 * one line and exits with code 1, having written nothing.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const dryRun = args.includes('--dry-run');
  const rest = args.filter((arg) => arg !== '--dry-run');
  const folder = rest[0];
  if (rest.length !== 1 || !folder || folder.startsWith('-')) throw new MongoImportError(USAGE);
  // The server's settings, read the way main.ts reads them: ./.env, with the environment winning.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  console.log(
    `Importing ${folder} into ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}` +
      (dryRun ? ' (dry run: nothing will be written)' : ''),
  );
  const summary = await importMongoExport(config, folder, { dryRun });
  for (const line of describeSummary(summary)) console.log(line);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof MongoImportError ? message : `Import failed: ${message}`);
  process.exitCode = 1;
});
