import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import * as tar from 'tar';
import type { AppConfig } from '../config/app-config';
import { createDatabase, SQLITE_FILE } from '../database/create-database';
import type { Dialect } from '../database/database.types';
import { migrateToLatest, migrationNames } from '../database/migrations';
import { uploadsDirectory } from '../uploads/uploads.module';
import { BackupError } from './backup-error';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  MANIFEST_FILE,
  parseManifest,
} from './backup-manifest';
import { describeSource, dumpSchema, restoreSchema, targetSchema } from './postgres-backup';
import { assertNotInUse, checkCopy, copyLiveDatabase } from './sqlite-backup';

/**
 * A backup is one gzip'd tar: manifest.json, database/ (the SQLite file or a pg_dump custom-format
 * dump) and uploads/ (every file of DATA_DIR/uploads). Work files live in a staging folder inside
 * DATA_DIR, so images are hard-linked rather than copied and the final renames stay on one disk.
 */

const DATABASE_DIR = 'database';
const UPLOADS_DIR = 'uploads';
const PG_DUMP_FILE = 'techit.pgdump';
const ARCHIVE_ENTRY = /^(?:manifest\.json|database\/?|database\/[^/]+|uploads\/?|uploads\/[^/]+)$/;

export interface BackupResult {
  file: string;
  manifest: BackupManifest;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Migrations run after the restore because the backup was older than this build. */
  migrated: string[];
}

function dialectOf(config: AppConfig): Dialect {
  return config.databaseUrl ? 'postgres' : 'sqlite';
}

const DIALECT_NAME: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * Backs up the configured database and uploaded images while the server runs. Images are
 * gathered before and again after the database copy: every image a copied row shows was stored
 * before that row was written, so it is in one of the two passes (unless the row was changed and
 * the image freed within the copy's few moments, which a backup cannot tell from the image
 * never having been shown).
 */
export async function createBackup(config: AppConfig, file: string): Promise<BackupResult> {
  const output = resolve(file);
  if (!existsSync(dirname(output))) throw new BackupError(`The folder ${dirname(output)} does not exist`);
  const inUploads = relative(uploadsDirectory(config), output);
  if (!inUploads.startsWith('..') && !inUploads.startsWith('/')) {
    throw new BackupError('Write the backup outside DATA_DIR/uploads: everything in that folder is served to anyone');
  }
  await mkdir(config.dataDir, { recursive: true });
  const staging = await mkdtemp(join(config.dataDir, '.backup-'));
  const partial = `${output}.partial-${process.pid}`;
  try {
    const images = join(staging, UPLOADS_DIR);
    await mkdir(images);
    await mkdir(join(staging, DATABASE_DIR));
    await stageImages(uploadsDirectory(config), images);

    const dialect = dialectOf(config);
    const startedAt = new Date();
    let database: BackupManifest['database'];
    let schemaVersion: string;
    if (dialect === 'sqlite') {
      const copy = join(DATABASE_DIR, SQLITE_FILE);
      await copyLiveDatabase(join(config.dataDir, SQLITE_FILE), join(staging, copy));
      ({ schemaVersion } = checkCopy(join(staging, copy)));
      database = { file: copy, bytes: (await stat(join(staging, copy))).size };
    } else {
      const source = await describeSource(config.databaseUrl!);
      const dump = join(DATABASE_DIR, PG_DUMP_FILE);
      await dumpSchema(config.databaseUrl!, source.schema, join(staging, dump));
      schemaVersion = source.schemaVersion;
      database = { file: dump, bytes: (await stat(join(staging, dump))).size, postgresSchema: source.schema };
    }

    await stageImages(uploadsDirectory(config), images);
    const files = (await readdir(images)).sort();
    let bytes = 0;
    for (const name of files) bytes += (await stat(join(images, name))).size;
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: startedAt.toISOString(),
      dialect,
      schemaVersion,
      database,
      images: { ...imageStorageOf(config), directory: UPLOADS_DIR, count: files.length, bytes, files },
    };
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    // Password hashes and emails are inside: for the owner's eyes only, from the first byte.
    await tar.create({ gzip: true, portable: true, file: partial, mode: 0o600, cwd: staging }, [
      MANIFEST_FILE,
      DATABASE_DIR,
      UPLOADS_DIR,
    ]);
    await chmod(partial, 0o600);
    // A backup file, once it has its name, is complete.
    await rename(partial, output);
    return { file: output, manifest };
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/** The same choice of driver as UploadsModule makes; images kept elsewhere are not in the archive. */
function imageStorageOf(config: AppConfig): Pick<BackupManifest['images'], 'storage' | 'note'> {
  if (config.s3) {
    return {
      storage: 's3',
      note: `Images uploaded since S3_BUCKET was set live in the bucket ${config.s3.bucket} and are not in this archive`,
    };
  }
  if (config.cloudinaryUrl) {
    return {
      storage: 'cloudinary',
      note: 'Images uploaded since CLOUDINARY_URL was set live on Cloudinary and are not in this archive',
    };
  }
  return { storage: 'disk' };
}

/**
 * Hard-links every file of the uploads folder not staged yet. A link keeps the bytes even if the
 * server frees the image a moment later, and costs no copy (a copy is the fallback across disks).
 */
async function stageImages(from: string, to: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(from);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const staged = new Set(await readdir(to));
  for (const name of names) {
    if (staged.has(name)) continue;
    const source = join(from, name);
    try {
      // Regular files only: a link could point anywhere, and a restore refuses archives holding one.
      if (!(await lstat(source)).isFile()) continue;
      await link(source, join(to, name)).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EXDEV' || error.code === 'EPERM') await copyFile(source, join(to, name));
        else throw error;
      });
    } catch (error) {
      // Freed between listing and linking: no row shows it any more.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Puts a backup back: the database first (all or nothing), then the images, then the migrations
 * this build has and the backup lacks. The server must be stopped; on SQLite that is checked.
 */
export async function restoreBackup(config: AppConfig, file: string): Promise<RestoreResult> {
  const archive = resolve(file);
  if (!existsSync(archive)) throw new BackupError(`There is no backup at ${archive}`);
  await mkdir(config.dataDir, { recursive: true });
  const staging = await mkdtemp(join(config.dataDir, '.restore-'));
  try {
    await extract(archive, staging);
    const manifestText = await readFile(join(staging, MANIFEST_FILE), 'utf8').catch(() => {
      throw new BackupError('This file is not a TechIt backup (it has no manifest.json)');
    });
    const manifest = parseManifest(manifestText);
    const dialect = dialectOf(config);
    if (manifest.dialect !== dialect) {
      throw new BackupError(
        `This is a ${DIALECT_NAME[manifest.dialect]} backup but the server is configured for ` +
          `${DIALECT_NAME[dialect]}: ${manifest.dialect === 'postgres' ? 'set' : 'unset'} DATABASE_URL to restore it`,
      );
    }
    if (!migrationNames().includes(manifest.schemaVersion)) {
      throw new BackupError(
        `This backup's schema (${manifest.schemaVersion}) is newer than this TechIt knows: upgrade TechIt, then restore`,
      );
    }
    const images = join(staging, UPLOADS_DIR);
    await mkdir(images, { recursive: true });
    const missing = manifest.images.files.filter((name) => !existsSync(join(images, name)));
    if (missing.length > 0 || !existsSync(join(staging, manifest.database.file))) {
      throw new BackupError(`The backup is incomplete: ${missing.length} image(s) or the database are missing`);
    }

    if (dialect === 'sqlite') {
      const copy = join(staging, manifest.database.file);
      checkCopy(copy);
      const live = join(config.dataDir, SQLITE_FILE);
      assertNotInUse(live);
      await rename(copy, live);
      // The old file's journal files must never be read beside the new file.
      for (const suffix of ['-wal', '-shm', '-journal']) await rm(`${live}${suffix}`, { force: true });
    } else {
      const schema = manifest.database.postgresSchema!;
      const target = await targetSchema(config.databaseUrl!);
      if (target !== schema) {
        throw new BackupError(
          `This backup holds schema "${schema}" but DATABASE_URL works in "${target}": restore into a DATABASE_URL ` +
            `whose search_path is ${schema} (…?options=-c%20search_path%3D${encodeURIComponent(schema)}), ` +
            `in another database if that schema is in use`,
        );
      }
      await restoreSchema(config.databaseUrl!, schema, join(staging, manifest.database.file));
    }

    const live = uploadsDirectory(config);
    if (existsSync(live)) await rename(live, join(staging, 'replaced-uploads'));
    await rename(images, live);

    const { db, dialect: opened } = createDatabase(config);
    try {
      return { manifest, migrated: await migrateToLatest(db, opened) };
    } finally {
      await db.destroy();
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Unpacks only the backup's own layout: plain files and folders, no links, nothing outside. */
async function extract(archive: string, into: string): Promise<void> {
  const refused: string[] = [];
  try {
    await tar.extract({
      file: archive,
      cwd: into,
      strict: true,
      filter: (path, entry) => {
        const type = 'type' in entry ? entry.type : entry.isDirectory() ? 'Directory' : 'File';
        const allowed = ARCHIVE_ENTRY.test(path) && (type === 'File' || type === 'Directory');
        if (!allowed) refused.push(path);
        return allowed;
      },
    });
  } catch (error) {
    throw new BackupError(
      `The file is not a readable TechIt backup (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (refused.length > 0)
    throw new BackupError(`The backup holds unexpected entries: ${refused.slice(0, 5).join(', ')}`);
}
