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
        databaseReadUrl: null,
        databasePoolSize: 10,
        databaseStatementTimeoutMs: 10_000,
        databaseIdleTimeoutMs: 10_000,
        jwtSecret: null,
        uploadMaxBytes: 5 * 1024 * 1024,
        cloudinaryUrl: null,
        s3: null,
        adminUserNames: new Set(),
        logLevel: 'info',
        webDistDir: expect.any(String),
        publicUrl: null,
        readCacheTtlMs: 5000,
        orphanSweepIntervalMs: 3_600_000,
        orphanMaxAgeHours: 24,
        rateLimits: {
          api: { limit: 300, windowSeconds: 60 },
          signIn: { limit: 10, windowSeconds: 60 },
          signInUserName: { limit: 10, windowSeconds: 60 },
          signUp: { limit: 5, windowSeconds: 3600 },
          upload: { limit: 30, windowSeconds: 1800 },
          content: { limit: 10, windowSeconds: 60 },
          likeFollow: { limit: 60, windowSeconds: 60 },
          drafts: { limit: 120, windowSeconds: 60 },
          preview: { limit: 60, windowSeconds: 60 },
          reports: { limit: 20, windowSeconds: 3600 },
          passwordReset: { limit: 10, windowSeconds: 3600 },
          passwordResetEmail: { limit: 3, windowSeconds: 3600 },
        },
        redisUrl: null,
        trustProxy: false,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 60_000,
        keepAliveTimeoutMs: 72_000,
        notificationHeartbeatMs: 25_000,
        sitemapPageSize: 50_000,
        sitemapCacheTtlMs: 600_000,
        mail: null,
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
        DATABASE_READ_URL: 'postgresql://reader:pass@replica.example:5432/techit',
        DATABASE_POOL_SIZE: '25',
        DATABASE_STATEMENT_TIMEOUT_MS: '5000',
        DATABASE_IDLE_TIMEOUT_MS: '30000',
        JWT_SECRET: VALID_SECRET,
        UPLOAD_MAX_BYTES: '1048576',
        CLOUDINARY_URL: 'cloudinary://123456:abc-DEF_ghi@my-cloud',
        ADMIN_USERNAMES: 'root',
        LOG_LEVEL: 'debug',
        WEB_DIST_DIR: '/srv/web',
        PUBLIC_URL: 'https://techit.example/',
        READ_CACHE_TTL_MS: '250',
        ORPHAN_SWEEP_INTERVAL_MS: '60000',
        ORPHAN_MAX_AGE_HOURS: '48',
        RATE_LIMIT_API: '1000/m',
        RATE_LIMIT_SIGN_IN: '20/2m',
        RATE_LIMIT_SIGN_IN_USER_NAME: '5/60s',
        RATE_LIMIT_SIGN_UP: '3/1h',
        RATE_LIMIT_UPLOAD: '10/h',
        RATE_LIMIT_CONTENT: '4/30s',
        RATE_LIMIT_LIKE_FOLLOW: '100/5m',
        RATE_LIMIT_DRAFTS: '30/1m',
        RATE_LIMIT_PREVIEW: '30/2m',
        RATE_LIMIT_REPORTS: '5/30m',
        RATE_LIMIT_PASSWORD_RESET: '20/1h',
        RATE_LIMIT_PASSWORD_RESET_EMAIL: '2/30m',
        TRUST_PROXY: '1',
        REDIS_URL: 'redis://:pass@redis.example:6379/2',
        HEADERS_TIMEOUT_MS: '5000',
        REQUEST_TIMEOUT_MS: '20000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        NOTIFICATION_HEARTBEAT_MS: '15000',
        SITEMAP_PAGE_SIZE: '1000',
        SITEMAP_CACHE_TTL_MS: '0',
        SMTP_URL: 'smtps://mailer:pass@mail.example:465',
        MAIL_FROM: 'TechIt <no-reply@techit.example>',
      });
      expect(config).toEqual({
        port: 8080,
        host: '127.0.0.1',
        dataDir: '/var/lib/techit',
        databaseUrl: 'postgresql://user:pass@db.example:5432/techit',
        databaseReadUrl: 'postgresql://reader:pass@replica.example:5432/techit',
        databasePoolSize: 25,
        databaseStatementTimeoutMs: 5000,
        databaseIdleTimeoutMs: 30000,
        jwtSecret: VALID_SECRET,
        uploadMaxBytes: 1048576,
        cloudinaryUrl: 'cloudinary://123456:abc-DEF_ghi@my-cloud',
        s3: null,
        adminUserNames: new Set(['root']),
        logLevel: 'debug',
        webDistDir: '/srv/web',
        publicUrl: 'https://techit.example',
        readCacheTtlMs: 250,
        orphanSweepIntervalMs: 60000,
        orphanMaxAgeHours: 48,
        rateLimits: {
          api: { limit: 1000, windowSeconds: 60 },
          signIn: { limit: 20, windowSeconds: 120 },
          signInUserName: { limit: 5, windowSeconds: 60 },
          signUp: { limit: 3, windowSeconds: 3600 },
          upload: { limit: 10, windowSeconds: 3600 },
          content: { limit: 4, windowSeconds: 30 },
          likeFollow: { limit: 100, windowSeconds: 300 },
          drafts: { limit: 30, windowSeconds: 60 },
          preview: { limit: 30, windowSeconds: 120 },
          reports: { limit: 5, windowSeconds: 1800 },
          passwordReset: { limit: 20, windowSeconds: 3600 },
          passwordResetEmail: { limit: 2, windowSeconds: 1800 },
        },
        redisUrl: 'redis://:pass@redis.example:6379/2',
        trustProxy: 1,
        headersTimeoutMs: 5000,
        requestTimeoutMs: 20000,
        keepAliveTimeoutMs: 65000,
        notificationHeartbeatMs: 15000,
        sitemapPageSize: 1000,
        sitemapCacheTtlMs: 0,
        mail: { smtpUrl: 'smtps://mailer:pass@mail.example:465', from: 'TechIt <no-reply@techit.example>' },
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

    it('turns the statement timeout and the idle-connection timeout off with 0', () => {
      const config = loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_IDLE_TIMEOUT_MS: '0' });
      expect(config.databaseStatementTimeoutMs).toBe(0);
      expect(config.databaseIdleTimeoutMs).toBe(0);
    });

    it('accepts DATABASE_POOL_SIZE at both ends of its range, 1 and 1000', () => {
      expect(loadConfig({ DATABASE_POOL_SIZE: '1' }).databasePoolSize).toBe(1);
      expect(loadConfig({ DATABASE_POOL_SIZE: '1000' }).databasePoolSize).toBe(1000);
    });

    it('accepts PORT at both ends of its range, 0 and 65535', () => {
      expect(loadConfig({ PORT: '0' }).port).toBe(0);
      expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    });

    it('turns the read cache off with READ_CACHE_TTL_MS=0', () => {
      expect(loadConfig({ READ_CACHE_TTL_MS: '0' }).readCacheTtlMs).toBe(0);
    });

    it('turns the orphaned-upload sweep off with ORPHAN_SWEEP_INTERVAL_MS=0', () => {
      expect(loadConfig({ ORPHAN_SWEEP_INTERVAL_MS: '0' }).orphanSweepIntervalMs).toBe(0);
    });

    it('turns every rate limit off with RATE_LIMITS=off, and on with RATE_LIMITS=on', () => {
      expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBeNull();
      expect(loadConfig({ RATE_LIMITS: 'on' }).rateLimits).toEqual(loadConfig({}).rateLimits);
    });

    it('reads a rate limit window in seconds, minutes or hours, the number optional', () => {
      const windowOf = (value: string) => loadConfig({ RATE_LIMIT_CONTENT: value }).rateLimits?.content;
      expect(windowOf('3/2s')).toEqual({ limit: 3, windowSeconds: 2 });
      expect(windowOf('10/1m')).toEqual({ limit: 10, windowSeconds: 60 });
      expect(windowOf('10/m')).toEqual({ limit: 10, windowSeconds: 60 });
      expect(windowOf('5/24h')).toEqual({ limit: 5, windowSeconds: 86_400 });
      expect(windowOf('1000000/1s')).toEqual({ limit: 1_000_000, windowSeconds: 1 });
    });

    it('reads TRUST_PROXY as off, a number of hops, or a list of addresses, ranges and names', () => {
      expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
      expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual([
        'loopback',
        '10.0.0.0/8',
        '::1',
        'fd00::/8',
      ]);
    });

    it('accepts a HEADERS_TIMEOUT_MS equal to REQUEST_TIMEOUT_MS', () => {
      const config = loadConfig({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '2000' });
      expect([config.headersTimeoutMs, config.requestTimeoutMs]).toEqual([2000, 2000]);
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

  describe('images in S3', () => {
    it('reads the S3_* settings, dropping a trailing slash from the URLs', () => {
      expect(
        loadConfig({
          S3_ENDPOINT: 'http://minio:9000/',
          S3_BUCKET: 'techit-images',
          S3_REGION: 'eu-central-1',
          S3_ACCESS_KEY_ID: 'key',
          S3_SECRET_ACCESS_KEY: 'secret',
          S3_PUBLIC_URL: 'https://images.example/techit-images/',
        }).s3,
      ).toEqual({
        endpoint: 'http://minio:9000',
        bucket: 'techit-images',
        region: 'eu-central-1',
        accessKeyId: 'key',
        secretAccessKey: 'secret',
        publicUrl: 'https://images.example/techit-images',
      });
    });

    it('needs only the bucket and its public URL on AWS: region us-east-1, the default credentials', () => {
      expect(loadConfig({ S3_BUCKET: 'techit', S3_PUBLIC_URL: 'https://techit.s3.amazonaws.com' }).s3).toEqual({
        endpoint: null,
        bucket: 'techit',
        region: 'us-east-1',
        accessKeyId: null,
        secretAccessKey: null,
        publicUrl: 'https://techit.s3.amazonaws.com',
      });
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
      [
        'DATABASE_READ_URL without DATABASE_URL',
        { DATABASE_READ_URL: 'postgres://reader@replica/techit' },
        'DATABASE_READ_URL',
      ],
      [
        'DATABASE_READ_URL=mysql://x',
        { DATABASE_URL: 'postgres://db/techit', DATABASE_READ_URL: 'mysql://x' },
        'DATABASE_READ_URL',
      ],
      [
        'DATABASE_READ_URL=postgres://[bad',
        { DATABASE_URL: 'postgres://db/techit', DATABASE_READ_URL: 'postgres://[bad' },
        'DATABASE_READ_URL',
      ],
      ['DATABASE_POOL_SIZE=0', { DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
      ['DATABASE_POOL_SIZE=1001', { DATABASE_POOL_SIZE: '1001' }, 'DATABASE_POOL_SIZE'],
      ['DATABASE_STATEMENT_TIMEOUT_MS=10s', { DATABASE_STATEMENT_TIMEOUT_MS: '10s' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
      [
        'DATABASE_STATEMENT_TIMEOUT_MS over an hour',
        { DATABASE_STATEMENT_TIMEOUT_MS: '3600001' },
        'DATABASE_STATEMENT_TIMEOUT_MS',
      ],
      ['DATABASE_IDLE_TIMEOUT_MS=-1', { DATABASE_IDLE_TIMEOUT_MS: '-1' }, 'DATABASE_IDLE_TIMEOUT_MS'],
      ['a 31-character JWT_SECRET', { JWT_SECRET: 'x'.repeat(31) }, 'JWT_SECRET'],
      ['UPLOAD_MAX_BYTES=0', { UPLOAD_MAX_BYTES: '0' }, 'UPLOAD_MAX_BYTES'],
      ['READ_CACHE_TTL_MS=-1', { READ_CACHE_TTL_MS: '-1' }, 'READ_CACHE_TTL_MS'],
      ['READ_CACHE_TTL_MS=5s', { READ_CACHE_TTL_MS: '5s' }, 'READ_CACHE_TTL_MS'],
      ['ORPHAN_SWEEP_INTERVAL_MS=1h', { ORPHAN_SWEEP_INTERVAL_MS: '1h' }, 'ORPHAN_SWEEP_INTERVAL_MS'],
      ['ORPHAN_SWEEP_INTERVAL_MS over 7 days', { ORPHAN_SWEEP_INTERVAL_MS: '604800001' }, 'ORPHAN_SWEEP_INTERVAL_MS'],
      ['ORPHAN_MAX_AGE_HOURS=0', { ORPHAN_MAX_AGE_HOURS: '0' }, 'ORPHAN_MAX_AGE_HOURS'],
      ['UPLOAD_MAX_BYTES=1023', { UPLOAD_MAX_BYTES: '1023' }, 'UPLOAD_MAX_BYTES'],
      ['UPLOAD_MAX_BYTES over 100 MiB', { UPLOAD_MAX_BYTES: String(100 * 1024 * 1024 + 1) }, 'UPLOAD_MAX_BYTES'],
      ['UPLOAD_MAX_BYTES=5MB', { UPLOAD_MAX_BYTES: '5MB' }, 'UPLOAD_MAX_BYTES'],
      ['CLOUDINARY_URL=bad', { CLOUDINARY_URL: 'bad' }, 'CLOUDINARY_URL'],
      ['CLOUDINARY_URL without a secret', { CLOUDINARY_URL: 'cloudinary://key@cloud' }, 'CLOUDINARY_URL'],
      ['REDIS_URL=http://redis:6379', { REDIS_URL: 'http://redis:6379' }, 'REDIS_URL'],
      ['REDIS_URL=redis:6379', { REDIS_URL: 'redis:6379' }, 'REDIS_URL'],
      ['S3_ENDPOINT alone', { S3_ENDPOINT: 'http://minio:9000' }, 'S3_BUCKET and S3_PUBLIC_URL'],
      ['S3_BUCKET without S3_PUBLIC_URL', { S3_BUCKET: 'techit' }, 'S3_PUBLIC_URL'],
      [
        'S3_ACCESS_KEY_ID without S3_SECRET_ACCESS_KEY',
        { S3_BUCKET: 'techit', S3_PUBLIC_URL: 'https://cdn.example', S3_ACCESS_KEY_ID: 'key' },
        'S3_SECRET_ACCESS_KEY',
      ],
      [
        'both CLOUDINARY_URL and S3_*',
        {
          CLOUDINARY_URL: 'cloudinary://123456:abc-DEF_ghi@my-cloud',
          S3_BUCKET: 'techit',
          S3_PUBLIC_URL: 'https://cdn.example',
        },
        'CLOUDINARY_URL',
      ],
      ['S3_BUCKET=Techit_Images', { S3_BUCKET: 'Techit_Images', S3_PUBLIC_URL: 'https://cdn.example' }, 'S3_BUCKET'],
      ['S3_PUBLIC_URL=cdn.example', { S3_BUCKET: 'techit', S3_PUBLIC_URL: 'cdn.example' }, 'S3_PUBLIC_URL'],
      [
        'S3_PUBLIC_URL with a query',
        { S3_BUCKET: 'techit', S3_PUBLIC_URL: 'https://cdn.example/?x=1' },
        'S3_PUBLIC_URL',
      ],
      [
        'S3_ENDPOINT=ftp://minio',
        { S3_BUCKET: 'techit', S3_PUBLIC_URL: 'https://cdn.example', S3_ENDPOINT: 'ftp://minio' },
        'S3_ENDPOINT',
      ],
      [
        'S3_REGION=EU West',
        { S3_BUCKET: 'techit', S3_PUBLIC_URL: 'https://cdn.example', S3_REGION: 'EU West' },
        'S3_REGION',
      ],
      ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      ['RATE_LIMITS=yes', { RATE_LIMITS: 'yes' }, 'RATE_LIMITS'],
      ['RATE_LIMIT_SIGN_IN=10', { RATE_LIMIT_SIGN_IN: '10' }, 'RATE_LIMIT_SIGN_IN'],
      ['RATE_LIMIT_SIGN_IN=10/min', { RATE_LIMIT_SIGN_IN: '10/min' }, 'RATE_LIMIT_SIGN_IN'],
      ['RATE_LIMIT_API=0/1m', { RATE_LIMIT_API: '0/1m' }, 'RATE_LIMIT_API'],
      ['RATE_LIMIT_API=10/0s', { RATE_LIMIT_API: '10/0s' }, 'RATE_LIMIT_API'],
      ['RATE_LIMIT_UPLOAD=10/25h', { RATE_LIMIT_UPLOAD: '10/25h' }, 'RATE_LIMIT_UPLOAD'],
      ['RATE_LIMIT_CONTENT=-1/1m', { RATE_LIMIT_CONTENT: '-1/1m' }, 'RATE_LIMIT_CONTENT'],
      ['RATE_LIMIT_LIKE_FOLLOW over a million', { RATE_LIMIT_LIKE_FOLLOW: '1000001/1m' }, 'RATE_LIMIT_LIKE_FOLLOW'],
      [
        'a bad RATE_LIMIT_SIGN_UP even with RATE_LIMITS=off',
        { RATE_LIMITS: 'off', RATE_LIMIT_SIGN_UP: '5' },
        'RATE_LIMIT_SIGN_UP',
      ],
      ['PUBLIC_URL without a scheme', { PUBLIC_URL: 'techit.example' }, 'PUBLIC_URL'],
      ['PUBLIC_URL=ftp://…', { PUBLIC_URL: 'ftp://techit.example' }, 'PUBLIC_URL'],
      ['PUBLIC_URL with a path', { PUBLIC_URL: 'https://example.com/techit' }, 'PUBLIC_URL'],
      ['PUBLIC_URL with a query', { PUBLIC_URL: 'https://techit.example/?a=1' }, 'PUBLIC_URL'],
      ['TRUST_PROXY=true', { TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
      ['TRUST_PROXY=0', { TRUST_PROXY: '0' }, 'TRUST_PROXY'],
      ['TRUST_PROXY=11', { TRUST_PROXY: '11' }, 'TRUST_PROXY'],
      ['TRUST_PROXY=10.0.0.0/33', { TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
      ['TRUST_PROXY=nginx', { TRUST_PROXY: 'nginx' }, 'TRUST_PROXY'],
      ['TRUST_PROXY with an empty entry', { TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
      ['HEADERS_TIMEOUT_MS=10s', { HEADERS_TIMEOUT_MS: '10s' }, 'HEADERS_TIMEOUT_MS'],
      ['HEADERS_TIMEOUT_MS=0', { HEADERS_TIMEOUT_MS: '0' }, 'HEADERS_TIMEOUT_MS'],
      ['REQUEST_TIMEOUT_MS=99', { REQUEST_TIMEOUT_MS: '99' }, 'REQUEST_TIMEOUT_MS'],
      ['KEEP_ALIVE_TIMEOUT_MS over 10 minutes', { KEEP_ALIVE_TIMEOUT_MS: '600001' }, 'KEEP_ALIVE_TIMEOUT_MS'],
      ['NOTIFICATION_HEARTBEAT_MS=5', { NOTIFICATION_HEARTBEAT_MS: '5' }, 'NOTIFICATION_HEARTBEAT_MS'],
      ['SMTP_URL without MAIL_FROM', { SMTP_URL: 'smtp://mail.example:587' }, 'MAIL_FROM'],
      [
        'SMTP_URL and MAIL_FROM without PUBLIC_URL',
        { SMTP_URL: 'smtp://mail.example:587', MAIL_FROM: 'a@techit.example' },
        'PUBLIC_URL',
      ],
      ['MAIL_FROM without SMTP_URL', { MAIL_FROM: 'no-reply@techit.example' }, 'SMTP_URL'],
      [
        'SMTP_URL=http://…',
        { SMTP_URL: 'http://mail.example', MAIL_FROM: 'a@techit.example', PUBLIC_URL: 'https://techit.example' },
        'SMTP_URL',
      ],
      [
        'SMTP_URL=mail.example:587',
        { SMTP_URL: 'mail.example:587', MAIL_FROM: 'a@techit.example', PUBLIC_URL: 'https://techit.example' },
        'SMTP_URL',
      ],
      [
        'MAIL_FROM=no-reply',
        { SMTP_URL: 'smtp://mail.example', MAIL_FROM: 'no-reply', PUBLIC_URL: 'https://techit.example' },
        'MAIL_FROM',
      ],
      [
        'MAIL_FROM with a line break',
        {
          SMTP_URL: 'smtp://mail.example',
          MAIL_FROM: 'TechIt\r\nBcc: x@evil.example <a@techit.example>',
          PUBLIC_URL: 'https://techit.example',
        },
        'MAIL_FROM',
      ],
      ['RATE_LIMIT_PASSWORD_RESET=3', { RATE_LIMIT_PASSWORD_RESET: '3' }, 'RATE_LIMIT_PASSWORD_RESET'],
      [
        'a HEADERS_TIMEOUT_MS longer than REQUEST_TIMEOUT_MS',
        { HEADERS_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '20000' },
        'HEADERS_TIMEOUT_MS',
      ],
    ])('refuses %s with a ConfigError naming the setting', (_label, env, setting) => {
      const error = errorOf(env);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(setting);
    });

    it('shows the bad value in the message so the typo can be found', () => {
      expect((errorOf({ PORT: 'abc' }) as Error).message).toContain('"abc"');
      expect((errorOf({ LOG_LEVEL: 'loud' }) as Error).message).toContain('"loud"');
      expect((errorOf({ RATE_LIMIT_API: '300 per minute' }) as Error).message).toContain('"300 per minute"');
      expect((errorOf({ TRUST_PROXY: 'yes' }) as Error).message).toContain('"yes"');
    });

    it('never repeats a secret in the message', () => {
      expect((errorOf({ REDIS_URL: 'http://:hunter2@redis' }) as Error).message).not.toContain('hunter2');
      expect(
        (errorOf({ S3_BUCKET: 'techit', S3_PUBLIC_URL: 'x', S3_SECRET_ACCESS_KEY: 'hunter2' }) as Error).message,
      ).not.toContain('hunter2');
      expect((errorOf({ JWT_SECRET: 'short-secret-value' }) as Error).message).not.toContain('short-secret-value');
      expect((errorOf({ CLOUDINARY_URL: 'cloudinary://key-only-secret' }) as Error).message).not.toContain(
        'key-only-secret',
      );
      expect((errorOf({ DATABASE_URL: 'mysql://u:hunter2@h/db' }) as Error).message).not.toContain('hunter2');
      expect(
        (errorOf({ SMTP_URL: 'http://u:hunter4@mail.example', MAIL_FROM: 'a@techit.example' }) as Error).message,
      ).not.toContain('hunter4');
      expect(
        (errorOf({ DATABASE_URL: 'postgres://db/techit', DATABASE_READ_URL: 'mysql://u:hunter3@h/db' }) as Error)
          .message,
      ).not.toContain('hunter3');
    });
  });
});
