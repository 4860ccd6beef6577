import { existsSync } from 'node:fs';
import { runRestoreCommand } from './backup-commands';

/** `npm run restore -- <file>`: with the server stopped, puts a backup back (database, then images). */
// The server's settings, read the way main.ts reads them: ./.env, with the environment winning.
if (existsSync('.env')) process.loadEnvFile('.env');
void runRestoreCommand(process.argv.slice(2), process.env, console).then((code) => {
  process.exitCode = code;
});
