import type { Dialect } from '../database/database.types';
import { BackupError } from './backup-error';

export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 'techit-backup';
/** Raised when the archive layout changes; a restore refuses a version it does not know. */
export const BACKUP_FORMAT_VERSION = 1;

/** manifest.json, the first entry of every backup archive. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** When the database copy began: the backup holds every write acknowledged before this. */
  createdAt: string;
  dialect: Dialect;
  /** The newest migration the backed-up database had applied. */
  schemaVersion: string;
  database: {
    /** Path inside the archive: the SQLite file, or pg_dump's custom-format dump. */
    file: string;
    bytes: number;
    /** PostgreSQL: the schema dumped, and the one a restore writes into. */
    postgresSchema?: string;
  };
  images: {
    /** Where the server stores new images. On Cloudinary or S3 they live there, not in this archive. */
    storage: 'disk' | 'cloudinary' | 's3';
    /** Folder inside the archive holding DATA_DIR/uploads. */
    directory: 'uploads';
    count: number;
    bytes: number;
    files: string[];
    note?: string;
  };
}

export function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError('The backup has an unreadable manifest.json');
  }
  const manifest = value as Partial<BackupManifest> | null;
  if (!manifest || manifest.format !== BACKUP_FORMAT) throw new BackupError('This file is not a TechIt backup');
  if (typeof manifest.formatVersion !== 'number' || manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      `This backup has format version ${String(manifest.formatVersion)}; this TechIt reads up to ` +
        `${BACKUP_FORMAT_VERSION}: restore it with a newer TechIt`,
    );
  }
  const valid =
    (manifest.dialect === 'sqlite' || manifest.dialect === 'postgres') &&
    typeof manifest.schemaVersion === 'string' &&
    typeof manifest.database?.file === 'string' &&
    (manifest.dialect === 'sqlite' || typeof manifest.database.postgresSchema === 'string') &&
    Array.isArray(manifest.images?.files) &&
    manifest.images.files.every((name) => typeof name === 'string');
  if (!valid) throw new BackupError('The backup manifest is incomplete');
  return manifest as BackupManifest;
}
