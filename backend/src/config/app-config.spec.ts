import { isAbsolute, resolve } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

const VALID_SECRET = 'x'.repeat(32);

function errorOf(env: NodeJS.ProcessEnv): unknown {
  try {
    loadConfig(env);
  } catch (error) {
    return error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  describe('defaults', () => {
    it('uses the documented defaults when nothing is set', () => {
      const config = loadConfig({});
      expect(config).toEqual({
        port: 3000,
        host: '0.0.0.0',
        dataDir: resolve(process.cwd(), 'data'),
        databaseUrl: null,
        jwtSecret: null,
        uploadMaxBytes: 5 * 1024 * 1024,
        cloudinaryUrl: null,
        adminUserNames: new Set(),
        logLevel: 'info',
        webDistDir: expect.any(String),
        readCacheTtlMs: 5000,
      });
      expect(isAbsolute(config.dataDir)).toBe(true);
      expect(isAbsolute(config.webDistDir)).toBe(true);
    });

    it('treats blank values as unset', () => {
      const config = loadConfig({
        PORT: '  ',
        HOST: '',
        DATA_DIR: ' ',
        DATABASE_URL: '',
        JWT_SECRET: ' ',
        LOG_LEVEL: '',
      });
      expect(config).toMatchObject({
        port: 3000,
        host: '0.0.0.0',
        dataDir: resolve(process.cwd(), 'data'),
        databaseUrl: null,
        jwtSecret: null,
        logLevel: 'info',
      });
    });

    it('does not read process.env when an env object is passed', () => {
      const saved = process.env.PORT;
      process.env.PORT = '4321';
      try {
        expect(loadConfig({}).port).toBe(3000);
      } finally {
        if (saved === undefined) delete process.env.PORT;
        else process.env.PORT = saved;
      }
    });
  });

  describe('settings that work', () => {
    it('reads every setting', () => {
      const config = loadConfig({
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/techit',
        DATABASE_URL: 'postgresql://user:pass@db.example:5432/techit',
        JWT_SECRET: VALID_SECRET,
        UPLOAD_MAX_BYTES: '1048576',
        CLOUDINARY_URL: 'cloudinary://123456:abc-DEF_ghi@my-cloud',
        ADMIN_USERNAMES: 'root',
        LOG_LEVEL: 'debug',
        WEB_DIST_DIR: '/srv/web',
        READ_CACHE_TTL_MS: '250',
      });
      expect(config).toEqual({
        port: 8080,
        host: '127.0.0.1',
        dataDir: '/var/lib/techit',
        databaseUrl: 'postgresql://user:pass@db.example:5432/techit',
        jwtSecret: VALID_SECRET,
        uploadMaxBytes: 1048576,
        cloudinaryUrl: 'cloudinary://123456:abc-DEF_ghi@my-cloud',
        adminUserNames: new Set(['root']),
        logLevel: 'debug',
        webDistDir: '/srv/web',
        readCacheTtlMs: 250,
      });
    });

    it('resolves a relative DATA_DIR against the working directory', () => {
      expect(loadConfig({ DATA_DIR: 'some/dir' }).dataDir).toBe(resolve(process.cwd(), 'some/dir'));
    });

    it('accepts postgres:// as well as postgresql://', () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://localhost/techit' }).databaseUrl).toBe(
        'postgres://localhost/techit',
      );
    });

    it('accepts PORT at both ends of its range, 0 and 65535', () => {
      expect(loadConfig({ PORT: '0' }).port).toBe(0);
      expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    });

    it('turns the read cache off with READ_CACHE_TTL_MS=0', () => {
      expect(loadConfig({ READ_CACHE_TTL_MS: '0' }).readCacheTtlMs).toBe(0);
    });

    it('accepts UPLOAD_MAX_BYTES at both ends of its range, 1 KiB and 100 MiB', () => {
      expect(loadConfig({ UPLOAD_MAX_BYTES: '1024' }).uploadMaxBytes).toBe(1024);
      expect(loadConfig({ UPLOAD_MAX_BYTES: String(100 * 1024 * 1024) }).uploadMaxBytes).toBe(100 * 1024 * 1024);
    });

    it('accepts a JWT_SECRET of exactly 32 characters', () => {
      expect(loadConfig({ JWT_SECRET: VALID_SECRET }).jwtSecret).toBe(VALID_SECRET);
    });

    it('reads ADMIN_USERNAMES as a lower-cased set, ignoring spaces and empty entries', () => {
      expect(loadConfig({ ADMIN_USERNAMES: 'A, b ,,c' }).adminUserNames).toEqual(new Set(['a', 'b', 'c']));
    });

    it('accepts every log level', () => {
      for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
        expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
      }
    });
  });

  describe('settings that cannot work', () => {
    it.each<[string, NodeJS.ProcessEnv, string]>([
      ['PORT=abc', { PORT: 'abc' }, 'PORT'],
      ['PORT=70000', { PORT: '70000' }, 'PORT'],
      ['PORT=65536', { PORT: '65536' }, 'PORT'],
      ['PORT=-1', { PORT: '-1' }, 'PORT'],
      ['PORT=80.5', { PORT: '80.5' }, 'PORT'],
      ['PORT=1e3', { PORT: '1e3' }, 'PORT'],
      ['DATABASE_URL=mysql://x', { DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      ['DATABASE_URL=postgres://[bad', { DATABASE_URL: 'postgres://[bad' }, 'DATABASE_URL'],
      ['a 31-character JWT_SECRET', { JWT_SECRET: 'x'.repeat(31) }, 'JWT_SECRET'],
      ['UPLOAD_MAX_BYTES=0', { UPLOAD_MAX_BYTES: '0' }, 'UPLOAD_MAX_BYTES'],
      ['READ_CACHE_TTL_MS=-1', { READ_CACHE_TTL_MS: '-1' }, 'READ_CACHE_TTL_MS'],
      ['READ_CACHE_TTL_MS=5s', { READ_CACHE_TTL_MS: '5s' }, 'READ_CACHE_TTL_MS'],
      ['UPLOAD_MAX_BYTES=1023', { UPLOAD_MAX_BYTES: '1023' }, 'UPLOAD_MAX_BYTES'],
      ['UPLOAD_MAX_BYTES over 100 MiB', { UPLOAD_MAX_BYTES: String(100 * 1024 * 1024 + 1) }, 'UPLOAD_MAX_BYTES'],
      ['UPLOAD_MAX_BYTES=5MB', { UPLOAD_MAX_BYTES: '5MB' }, 'UPLOAD_MAX_BYTES'],
      ['CLOUDINARY_URL=bad', { CLOUDINARY_URL: 'bad' }, 'CLOUDINARY_URL'],
      ['CLOUDINARY_URL without a secret', { CLOUDINARY_URL: 'cloudinary://key@cloud' }, 'CLOUDINARY_URL'],
      ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ])('refuses %s with a ConfigError naming the setting', (_label, env, setting) => {
      const error = errorOf(env);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(setting);
    });

    it('shows the bad value in the message so the typo can be found', () => {
      expect((errorOf({ PORT: 'abc' }) as Error).message).toContain('"abc"');
      expect((errorOf({ LOG_LEVEL: 'loud' }) as Error).message).toContain('"loud"');
    });

    it('never repeats a secret in the message', () => {
      expect((errorOf({ JWT_SECRET: 'short-secret-value' }) as Error).message).not.toContain('short-secret-value');
      expect((errorOf({ CLOUDINARY_URL: 'cloudinary://key-only-secret' }) as Error).message).not.toContain(
        'key-only-secret',
      );
      expect((errorOf({ DATABASE_URL: 'mysql://u:hunter2@h/db' }) as Error).message).not.toContain('hunter2');
    });
  });
});
