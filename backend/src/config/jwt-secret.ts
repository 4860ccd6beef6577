import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AppConfig, ConfigError } from './app-config';

const SECRET_FILE = 'jwt-secret';
const MIN_LENGTH = 32;

/**
 * JWT_SECRET when set; otherwise a secret generated on first start and kept in DATA_DIR (mode
 * 0600), so a single-machine install is secure with zero set-up and tokens survive restarts.
 * With PostgreSQL JWT_SECRET is required: that is the set-up where several instances serve one
 * site, and a secret generated into one instance's DATA_DIR would make every other instance
 * refuse the tokens it signs.
 */
export function resolveJwtSecret(config: AppConfig): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = join(config.dataDir, SECRET_FILE);
  const existing = readSecret(file);
  if (config.databaseUrl) {
    const keep = existing === null ? '' : ` (to keep current sign-ins valid, use the secret in ${file})`;
    throw new ConfigError(
      `JWT_SECRET must be set when DATABASE_URL is: every instance sharing the database must sign tokens with the same secret, which a generated one in DATA_DIR is not${keep}`,
    );
  }
  if (existing !== null) return checked(existing, file);

  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  // 'wx' refuses to overwrite: if two processes race on first start, the loser reads the winner's.
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return checked(readSecret(file) ?? '', file);
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}

function readSecret(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A damaged secret file (empty after a crash, or edited by hand) must never sign tokens. */
function checked(secret: string, file: string): string {
  if (secret.length < MIN_LENGTH) {
    throw new ConfigError(
      `${file} holds fewer than ${MIN_LENGTH} characters; delete it to have a new secret generated, or set JWT_SECRET`,
    );
  }
  return secret;
}

/**
 * For a command that builds the app's modules but signs and checks no token (npm run admin): a
 * throwaway secret, so the command runs wherever the database is reachable, JWT_SECRET set or
 * not, and writes no secret file.
 */
export function throwawayJwtSecret(): string {
  return randomBytes(48).toString('base64url');
}
