import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { settingOrInsert } from '../database/app-settings.repository';
import type { Db, Dialect } from '../database/database.types';
import { type AppConfig, ConfigError } from './app-config';

/** Where a SQLite install kept its generated secret before it moved into the database. */
const LEGACY_SECRET_FILE = 'jwt-secret';
const SETTING_KEY = 'jwt_secret';
const MIN_LENGTH = 32;

/**
 * JWT_SECRET when set; otherwise a secret generated once per database and kept in it
 * (app_settings), so every instance on that database signs and checks tokens alike with no set-up,
 * tokens survive restarts, and a backup restores the sign-ins with the data
 * (docs/decisions/021-jwt-secret-kept-in-the-database.md). Runs after the migrations.
 *
 * A SQLite install from before kept its secret in DATA_DIR/jwt-secret: the first start offers that
 * one instead of a new one, so upgrading signs nobody out.
 */
export async function resolveJwtSecret(config: AppConfig, db: Db, dialect: Dialect): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const offered = (dialect === 'sqlite' ? legacySecret(config.dataDir) : null) ?? randomBytes(48).toString('base64url');
  const stored = await settingOrInsert(db, SETTING_KEY, offered);
  // Only by editing the database by hand; never sign tokens with a guessable secret.
  if (stored.length < MIN_LENGTH) {
    throw new ConfigError(
      `the stored JWT secret (app_settings, key ${SETTING_KEY}) holds fewer than ${MIN_LENGTH} characters; delete that row to have a new one generated, or set JWT_SECRET`,
    );
  }
  return stored;
}

/** The secret an earlier version generated into DATA_DIR, when there is a usable one. */
function legacySecret(dataDir: string): string | null {
  try {
    const secret = readFileSync(join(dataDir, LEGACY_SECRET_FILE), 'utf8').trim();
    return secret.length >= MIN_LENGTH ? secret : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * For a command that builds the app's modules but signs and checks no token (npm run admin): a
 * throwaway secret, so the command never creates the stored one.
 */
export function throwawayJwtSecret(): string {
  return randomBytes(48).toString('base64url');
}
