import { existsSync } from 'node:fs';
import { runBackupCommand } from './backup-commands';

/** `npm run backup -- <file>`: an online backup of the database and the uploaded images. */
// The server's settings, read the way main.ts reads them: ./.env, with the environment winning.
if (existsSync('.env')) process.loadEnvFile('.env');
void runBackupCommand(process.argv.slice(2), process.env, console).then((code) => {
  process.exitCode = code;
});
