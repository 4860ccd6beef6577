import { isAbsolute, resolve } from 'node:path';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AppConfig {
  port: number;
  host: string;
  /** Holds the SQLite file, uploaded images and the generated JWT secret. */
  dataDir: string;
  /** postgres://… selects PostgreSQL; null selects the embedded SQLite file. */
  databaseUrl: string | null;
  /** null: resolved at start-up from DATA_DIR (generated once). */
  jwtSecret: string | null;
  uploadMaxBytes: number;
  cloudinaryUrl: string | null;
  /** Lower-cased userNames that are admins by configuration. */
  adminUserNames: ReadonlySet<string>;
  logLevel: LogLevel;
  /** The built web app, served at / when present. */
  webDistDir: string;
  /** How long a visitor's API read may be answered from memory; 0 turns the read cache off. */
  readCacheTtlMs: number;
}

/** A setting that cannot work; start-up stops with this one line. */
export class ConfigError extends Error {}

const MIB = 1024 * 1024;

/**
 * Reads every setting once, at start-up, and fails fast naming the first bad one: a typo in
 * production should stop the process, not surface as a strange error an hour later.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolveDir(text(env, 'DATA_DIR') ?? './data');
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    databaseUrl: databaseUrl(env),
    jwtSecret: jwtSecret(env),
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', 5 * MIB, 1024, 100 * MIB),
    cloudinaryUrl: cloudinaryUrl(env),
    adminUserNames: new Set(
      (text(env, 'ADMIN_USERNAMES') ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name.length > 0),
    ),
    logLevel: logLevel(env),
    webDistDir: resolveDir(text(env, 'WEB_DIST_DIR') ?? resolve(__dirname, '../../../frontend/dist')),
    readCacheTtlMs: integer(env, 'READ_CACHE_TTL_MS', 5000, 0, 3_600_000),
  };
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function resolveDir(dir: string): string {
  return isAbsolute(dir) ? dir : resolve(process.cwd(), dir);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function databaseUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = text(env, 'DATABASE_URL');
  if (raw === undefined) return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use SQLite)');
  }
  try {
    new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid URL');
  }
  return raw;
}

function jwtSecret(env: NodeJS.ProcessEnv): string | null {
  const raw = text(env, 'JWT_SECRET');
  if (raw === undefined) return null;
  if (raw.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters (unset it to have one generated)');
  }
  return raw;
}

function cloudinaryUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = text(env, 'CLOUDINARY_URL');
  if (raw === undefined) return null;
  if (!/^cloudinary:\/\/[^:@\s]+:[^@\s]+@[^\s/]+$/.test(raw)) {
    throw new ConfigError('CLOUDINARY_URL must look like cloudinary://<api_key>:<api_secret>@<cloud_name>');
  }
  return raw;
}

function logLevel(env: NodeJS.ProcessEnv): LogLevel {
  const raw = text(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  }
  return raw as LogLevel;
}
