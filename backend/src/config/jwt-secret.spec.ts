import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';
import { resolveJwtSecret, throwawayJwtSecret } from './jwt-secret';

describe('resolveJwtSecret', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'techit-jwt-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('generates a long random secret into DATA_DIR/jwt-secret with mode 0600 when JWT_SECRET is unset', () => {
    const dataDir = join(root, 'not', 'yet', 'created');
    const secret = resolveJwtSecret(loadConfig({ DATA_DIR: dataDir }));
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const file = join(dataDir, 'jwt-secret');
    expect(readFileSync(file, 'utf8')).toBe(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('returns the same secret on the next call, so tokens survive a restart', () => {
    const config = loadConfig({ DATA_DIR: root });
    const first = resolveJwtSecret(config);
    expect(resolveJwtSecret(config)).toBe(first);
    expect(resolveJwtSecret(loadConfig({ DATA_DIR: root }))).toBe(first);
  });

  it('generates a different secret for each data directory', () => {
    const a = resolveJwtSecret(loadConfig({ DATA_DIR: join(root, 'a') }));
    const b = resolveJwtSecret(loadConfig({ DATA_DIR: join(root, 'b') }));
    expect(a).not.toBe(b);
  });

  it('uses JWT_SECRET when it is set, and writes no file', () => {
    const secret = 'an-operator-chosen-secret-of-40-characters';
    expect(resolveJwtSecret(loadConfig({ DATA_DIR: root, JWT_SECRET: secret }))).toBe(secret);
    expect(existsSync(join(root, 'jwt-secret'))).toBe(false);
  });

  it('prefers JWT_SECRET over a secret already generated in DATA_DIR', () => {
    const generated = resolveJwtSecret(loadConfig({ DATA_DIR: root }));
    const secret = 'an-operator-chosen-secret-of-40-characters';
    expect(resolveJwtSecret(loadConfig({ DATA_DIR: root, JWT_SECRET: secret }))).toBe(secret);
    expect(readFileSync(join(root, 'jwt-secret'), 'utf8')).toBe(generated);
  });

  it('reads a secret file written by hand, ignoring a trailing newline', () => {
    const secret = 's'.repeat(40);
    writeFileSync(join(root, 'jwt-secret'), `${secret}\n`, { mode: 0o600 });
    expect(resolveJwtSecret(loadConfig({ DATA_DIR: root }))).toBe(secret);
  });

  it.each([
    ['is empty', ''],
    ['holds fewer than 32 characters', 'short'],
  ])(
    'refuses to start with a ConfigError when the secret file %s, rather than sign tokens with it',
    (_label, content) => {
      writeFileSync(join(root, 'jwt-secret'), content, { mode: 0o600 });
      const call = () => resolveJwtSecret(loadConfig({ DATA_DIR: root }));
      expect(call).toThrow(ConfigError);
      expect(call).toThrow(/jwt-secret/);
      expect(readFileSync(join(root, 'jwt-secret'), 'utf8')).toBe(content);
    },
  );

  describe('with PostgreSQL (DATABASE_URL), where several instances share one database', () => {
    const DATABASE_URL = 'postgres://techit:secret@db.example:5432/techit';

    it('refuses to start without JWT_SECRET, in one line naming it and why, and generates nothing', () => {
      const call = () => resolveJwtSecret(loadConfig({ DATA_DIR: root, DATABASE_URL }));
      expect(call).toThrow(ConfigError);
      expect(call).toThrow(/^JWT_SECRET must be set when DATABASE_URL is: every instance .* same secret/);
      expect(call).not.toThrow(/\n/);
      expect(existsSync(join(root, 'jwt-secret'))).toBe(false);
    });

    it('refuses a secret generated earlier in DATA_DIR too, pointing at it so current sign-ins can be kept', () => {
      const generated = resolveJwtSecret(loadConfig({ DATA_DIR: root }));
      const call = () => resolveJwtSecret(loadConfig({ DATA_DIR: root, DATABASE_URL }));
      expect(call).toThrow(ConfigError);
      expect(call).toThrow(join(root, 'jwt-secret'));
      // The message names the file, never the secret in it.
      expect(call).not.toThrow(generated);
    });

    it('uses JWT_SECRET when it is set', () => {
      const secret = 'an-operator-chosen-secret-of-40-characters';
      expect(resolveJwtSecret(loadConfig({ DATA_DIR: root, DATABASE_URL, JWT_SECRET: secret }))).toBe(secret);
    });
  });
});

describe('throwawayJwtSecret', () => {
  it('gives a fresh secret of at least 32 characters each time, for commands that sign no token', () => {
    const first = throwawayJwtSecret();
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(throwawayJwtSecret()).not.toBe(first);
  });
});
