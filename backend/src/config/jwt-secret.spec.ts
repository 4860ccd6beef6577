import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../database/create-database';
import type { Db } from '../database/database.types';
import { migrateToLatest } from '../database/migrations';
import { ConfigError, loadConfig } from './app-config';
import { resolveJwtSecret, throwawayJwtSecret } from './jwt-secret';

// On SQLite; the API suite (jwt-secret.e2e-spec.ts) runs it on both databases with several instances.
describe('resolveJwtSecret', () => {
  let root: string;
  let db: Db;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'techit-jwt-'));
    db = createDatabase({ dataDir: root, databaseUrl: null }).db;
    await migrateToLatest(db, 'sqlite');
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  const stored = async () => db.selectFrom('app_settings').selectAll().where('key', '=', 'jwt_secret').execute();

  it('generates a long random secret into the database when JWT_SECRET is unset, and keeps it', async () => {
    const secret = await resolveJwtSecret(loadConfig({ DATA_DIR: root }), db, 'sqlite');
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect((await stored()).map((row) => row.value)).toEqual([secret]);
    expect(await resolveJwtSecret(loadConfig({ DATA_DIR: root }), db, 'sqlite')).toBe(secret);
  });

  it('gives every caller the one stored secret when they start at the same moment', async () => {
    const config = loadConfig({ DATA_DIR: root });
    const secrets = await Promise.all([1, 2, 3, 4].map(() => resolveJwtSecret(config, db, 'sqlite')));
    expect(new Set(secrets).size).toBe(1);
    expect(await stored()).toHaveLength(1);
  });

  it('uses JWT_SECRET when it is set, and stores nothing', async () => {
    const secret = 'an-operator-chosen-secret-of-40-characters';
    expect(await resolveJwtSecret(loadConfig({ DATA_DIR: root, JWT_SECRET: secret }), db, 'sqlite')).toBe(secret);
    expect(await stored()).toEqual([]);
  });

  it('adopts the secret an earlier version generated into DATA_DIR/jwt-secret, so upgrading signs nobody out', async () => {
    const secret = 's'.repeat(40);
    writeFileSync(join(root, 'jwt-secret'), `${secret}\n`, { mode: 0o600 });
    expect(await resolveJwtSecret(loadConfig({ DATA_DIR: root }), db, 'sqlite')).toBe(secret);
    expect((await stored()).map((row) => row.value)).toEqual([secret]);
  });

  it('ignores a damaged old secret file and generates a new secret instead', async () => {
    writeFileSync(join(root, 'jwt-secret'), 'short', { mode: 0o600 });
    const secret = await resolveJwtSecret(loadConfig({ DATA_DIR: root }), db, 'sqlite');
    expect(secret).not.toBe('short');
    expect(secret.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses to sign tokens with a stored secret edited down to fewer than 32 characters, never naming it', async () => {
    await db.insertInto('app_settings').values({ key: 'jwt_secret', value: 'tiny', created_at: '' }).execute();
    const call = () => resolveJwtSecret(loadConfig({ DATA_DIR: root }), db, 'sqlite');
    await expect(call()).rejects.toThrow(ConfigError);
    await expect(call()).rejects.toThrow(/app_settings/);
    await expect(call()).rejects.not.toThrow(/tiny/);
  });
});

describe('throwawayJwtSecret', () => {
  it('gives a fresh secret of at least 32 characters each time, for commands that sign no token', () => {
    const first = throwawayJwtSecret();
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(throwawayJwtSecret()).not.toBe(first);
  });
});
