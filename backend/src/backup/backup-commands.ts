import { ConfigError, loadConfig } from '../config/app-config';
import { createBackup, restoreBackup } from './backup-archive';
import { BackupError } from './backup-error';

export const BACKUP_USAGE = 'Usage: npm run backup -- <file.tar.gz>';
export const RESTORE_USAGE = 'Usage: npm run restore -- <file.tar.gz>   (stop the server first)';

/** Where a command's lines go: the console in the CLI, an array in tests. */
export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

/** `npm run backup -- <file>`: answers the exit code (0 done, 1 failed, 2 bad arguments). */
export function runBackupCommand(args: string[], env: NodeJS.ProcessEnv, out: CommandOutput): Promise<number> {
  return run(args, BACKUP_USAGE, out, async (file) => {
    const config = loadConfig(env);
    const { manifest } = await createBackup(config, file);
    const where = manifest.dialect === 'sqlite' ? `SQLite database in ${config.dataDir}` : 'PostgreSQL schema';
    out.log(
      `Backed up the ${where}${manifest.database.postgresSchema ? ` "${manifest.database.postgresSchema}"` : ''} ` +
        `(schema ${manifest.schemaVersion}) and ${manifest.images.count} image file(s) to ${file}`,
    );
    if (manifest.images.note) out.log(manifest.images.note);
  });
}

/** `npm run restore -- <file>`: replaces the configured database and images with the backup's. */
export function runRestoreCommand(args: string[], env: NodeJS.ProcessEnv, out: CommandOutput): Promise<number> {
  return run(args, RESTORE_USAGE, out, async (file) => {
    const config = loadConfig(env);
    const { manifest, migrated } = await restoreBackup(config, file);
    out.log(
      `Restored the backup of ${manifest.createdAt} (${manifest.dialect}, schema ${manifest.schemaVersion}) ` +
        `and ${manifest.images.count} image file(s) into ${config.dataDir}`,
    );
    if (migrated.length > 0) out.log(`Then applied the newer migrations: ${migrated.join(', ')}`);
    if (manifest.images.note) out.log(manifest.images.note);
    out.log('Start the server now.');
  });
}

async function run(
  args: string[],
  usage: string,
  out: CommandOutput,
  work: (file: string) => Promise<void>,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    out.log(usage);
    return 0;
  }
  if (args.length !== 1 || args[0].startsWith('-')) {
    out.error(usage);
    return 2;
  }
  try {
    await work(args[0]);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) out.error(`Configuration error: ${error.message}`);
    else if (error instanceof BackupError) out.error(error.message);
    else out.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}
