import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { OUTSIDE } from '@techit/contract/limits';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AppConfig {
  port: number;
  host: string;
  /** Holds the SQLite file and uploaded images. */
  dataDir: string;
  /** postgres://… selects PostgreSQL; null selects the embedded SQLite file. */
  databaseUrl: string | null;
  /** A read replica of DATABASE_URL for visitors' GETs (docs/decisions/009); null: every query goes to the primary. */
  databaseReadUrl: string | null;
  /** PostgreSQL only: the most connections each pool (primary, replica) opens. */
  databasePoolSize: number;
  /** PostgreSQL only: a statement running longer is cancelled and its request answered 503; 0: no limit. */
  databaseStatementTimeoutMs: number;
  /** PostgreSQL only: a pooled connection idle this long is closed; 0: idle connections stay open. */
  databaseIdleTimeoutMs: number;
  /** null: generated once per database and kept in it (config/jwt-secret.ts). */
  jwtSecret: string | null;
  uploadMaxBytes: number;
  cloudinaryUrl: string | null;
  /** Uploaded images in an S3-compatible bucket (S3_*); null: on disk, or on Cloudinary. */
  s3: S3Settings | null;
  /** Lower-cased userNames that are admins by configuration. */
  adminUserNames: ReadonlySet<string>;
  logLevel: LogLevel;
  /** The built web app, served at / when present. */
  webDistDir: string;
  /**
   * PUBLIC_URL: the site's address as the world reaches it (scheme, host, optional path-less port),
   * for the pages' canonical links and link previews; null: each request's own protocol and Host.
   */
  publicUrl: string | null;
  /** How long a visitor's API read may be answered from memory; 0 turns the read cache off. */
  readCacheTtlMs: number;
  /** How often the server removes uploads no row references; 0 turns the sweep off. */
  orphanSweepIntervalMs: number;
  /** An unreferenced upload is removed once it is older than this (its file's mtime). */
  orphanMaxAgeHours: number;
  /** One rule per limit (RATE_LIMIT_*); null when RATE_LIMITS=off. */
  rateLimits: RateLimitRules | null;
  /** REDIS_URL: the limits' counters in Redis, shared by every instance; null: in this process's memory. */
  redisUrl: string | null;
  /** Which proxies' X-Forwarded-For is believed (Fastify trustProxy); false: the socket's address. */
  trustProxy: TrustProxy;
  /** Slow clients (slowloris): the longest a request's headers, and a whole request, may take to arrive. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** How often an open notification stream sends its `: ping` heartbeat (NOTIFICATION_HEARTBEAT_MS). */
  notificationHeartbeatMs: number;
  /** URLs per sitemap page (SITEMAP_PAGE_SIZE; at most the protocol's 50,000, OUTSIDE.sitemapPageSize). */
  sitemapPageSize: number;
  /** How long sitemaps are kept in memory (SITEMAP_CACHE_TTL_MS); 0: built on every request. */
  sitemapCacheTtlMs: number;
  /** SMTP_URL + MAIL_FROM: where password reset mails go out (docs/decisions/050); null: no mail is sent. */
  mail: MailSettings | null;
}

/** How mail leaves the site: one SMTP server (nodemailer reads the URL) and the sender. */
export interface MailSettings {
  /** smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://…:465 (TLS from the start). */
  smtpUrl: string;
  /** `address@example.org` or `Name <address@example.org>`. */
  from: string;
}

/** The rate limits; docs/decisions/010 says what each counts and by whom. */
export const RATE_LIMIT_NAMES = [
  'api',
  'signIn',
  'signInUserName',
  'signUp',
  'upload',
  'content',
  'likeFollow',
  'drafts',
  'preview',
  'reports',
  'passwordReset',
  'passwordResetEmail',
] as const;
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];
/** At most `limit` requests in any `windowSeconds`. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}
export type RateLimitRules = Record<RateLimitName, RateLimitRule>;

/** false, a number of proxy hops, or the proxies' addresses and CIDR ranges. */
export type TrustProxy = false | number | string[];

/** Where S3_* put uploaded images: any S3-compatible store (AWS S3, MinIO, Ceph, R2…). */
export interface S3Settings {
  /** A non-AWS service's URL, addressed path-style (`<endpoint>/<bucket>/<key>`); null: AWS S3. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Both or neither: without them the AWS SDK's default credentials (an IAM role, ~/.aws) are used. */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Where browsers fetch the objects, without a trailing slash: an image's URL is `${publicUrl}/<key>`. */
  publicUrl: string;
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
    ...postgresSettings(env),
    jwtSecret: jwtSecret(env),
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', 5 * MIB, 1024, 100 * MIB),
    cloudinaryUrl: cloudinaryUrl(env),
    s3: s3Settings(env),
    adminUserNames: new Set(
      (text(env, 'ADMIN_USERNAMES') ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name.length > 0),
    ),
    logLevel: logLevel(env),
    webDistDir: resolveDir(text(env, 'WEB_DIST_DIR') ?? resolve(__dirname, '../../../frontend/dist')),
    publicUrl: publicUrl(env),
    readCacheTtlMs: integer(env, 'READ_CACHE_TTL_MS', 5000, 0, 3_600_000),
    orphanSweepIntervalMs: integer(env, 'ORPHAN_SWEEP_INTERVAL_MS', 3_600_000, 0, 604_800_000),
    orphanMaxAgeHours: integer(env, 'ORPHAN_MAX_AGE_HOURS', 24, 1, 8760),
    rateLimits: rateLimits(env),
    redisUrl: redisUrl(env),
    trustProxy: trustProxy(env),
    ...serverTimeouts(env),
    // Below every proxy's idle timeout (nginx 60 s) so an idle stream is never cut; tests shorten it.
    notificationHeartbeatMs: integer(env, 'NOTIFICATION_HEARTBEAT_MS', 25_000, 10, 600_000),
    sitemapPageSize: integer(env, 'SITEMAP_PAGE_SIZE', OUTSIDE.sitemapPageSize, 1, OUTSIDE.sitemapPageSize),
    sitemapCacheTtlMs: integer(env, 'SITEMAP_CACHE_TTL_MS', 600_000, 0, 86_400_000),
    mail: mailSettings(env),
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

/**
 * Pool and timeouts apply per connection pool: every instance opens up to DATABASE_POOL_SIZE
 * connections to the primary (and as many to a replica), so instances × pool size must stay under
 * the server's max_connections. On SQLite they are read (a typo still stops start-up) and unused.
 */
function postgresSettings(
  env: NodeJS.ProcessEnv,
): Pick<AppConfig, 'databaseReadUrl' | 'databasePoolSize' | 'databaseStatementTimeoutMs' | 'databaseIdleTimeoutMs'> {
  const readUrl = text(env, 'DATABASE_READ_URL');
  if (readUrl !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(readUrl) || !URL.canParse(readUrl)) {
      throw new ConfigError('DATABASE_READ_URL must be a postgres:// or postgresql:// URL of a read replica');
    }
    if (text(env, 'DATABASE_URL') === undefined) {
      throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL: a read replica is a copy of a PostgreSQL primary');
    }
  }
  return {
    databaseReadUrl: readUrl ?? null,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 0, 3_600_000),
    databaseIdleTimeoutMs: integer(env, 'DATABASE_IDLE_TIMEOUT_MS', 10_000, 0, 3_600_000),
  };
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

const S3_SETTINGS = [
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PUBLIC_URL',
] as const;

/** All of them that images in S3 need, or none; never half a configuration that fails at the first upload. */
function s3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const given = S3_SETTINGS.filter((name) => text(env, name) !== undefined);
  if (given.length === 0) return null;
  const missing = (['S3_BUCKET', 'S3_PUBLIC_URL'] as const).filter((name) => text(env, name) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `${missing.join(' and ')} must be set too when ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} (images in S3 need S3_BUCKET and S3_PUBLIC_URL; unset every S3_ setting to keep them in DATA_DIR)`,
    );
  }
  if (text(env, 'CLOUDINARY_URL') !== undefined) {
    throw new ConfigError('CLOUDINARY_URL and the S3_ settings cannot both be set: choose one place for images');
  }
  const accessKeyId = text(env, 'S3_ACCESS_KEY_ID') ?? null;
  const secretAccessKey = text(env, 'S3_SECRET_ACCESS_KEY') ?? null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS default credentials',
    );
  }
  const bucket = text(env, 'S3_BUCKET')!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      `S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens (got "${bucket}")`,
    );
  }
  const region = text(env, 'S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,40}$/.test(region)) {
    throw new ConfigError(`S3_REGION must be a region name such as us-east-1 (got "${region}")`);
  }
  const endpoint = text(env, 'S3_ENDPOINT');
  return {
    endpoint: endpoint === undefined ? null : webUrl('S3_ENDPOINT', endpoint).replace(/\/+$/, ''),
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    publicUrl: webUrl('S3_PUBLIC_URL', text(env, 'S3_PUBLIC_URL')!).replace(/\/+$/, ''),
  };
}

/**
 * The origin pages link to (canonical, og:url, og:image). An origin only: the app is served at the
 * root of its host, so a path would make every canonical link point at pages that do not exist.
 */
function publicUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = text(env, 'PUBLIC_URL');
  if (raw === undefined) return null;
  const url = webUrl('PUBLIC_URL', raw);
  const { origin, pathname } = new URL(url);
  if (pathname !== '/') {
    throw new ConfigError(`PUBLIC_URL must be an origin such as https://techit.example, without a path (got "${raw}")`);
  }
  return origin;
}

/** An http(s) URL with no query or fragment (a key is appended to it). */
function webUrl(name: string, raw: string): string {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Reported below with the rest.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new ConfigError(`${name} must be an http:// or https:// URL without credentials, query or fragment`);
  }
  return raw;
}

/**
 * Both or neither: a sender without a server, or a server without a sender, would fail at the first
 * reset mail instead of at start-up. The sender goes into a mail header, so no line breaks.
 */
function mailSettings(env: NodeJS.ProcessEnv): MailSettings | null {
  const smtpUrl = text(env, 'SMTP_URL');
  const from = text(env, 'MAIL_FROM');
  if (smtpUrl === undefined && from === undefined) return null;
  if (smtpUrl === undefined || from === undefined) {
    throw new ConfigError(
      `${smtpUrl === undefined ? 'SMTP_URL' : 'MAIL_FROM'} must be set too when ${smtpUrl === undefined ? 'MAIL_FROM' : 'SMTP_URL'} is (password reset mails need both; unset both to send no mail)`,
    );
  }
  // A reset link taken from the request's Host would let anyone ask for a victim's reset with
  // `Host: evil.example` and have the victim's mailbox receive a working token on the attacker's
  // site (password reset poisoning). With mail on, the site's address must be configured.
  if (text(env, 'PUBLIC_URL') === undefined) {
    throw new ConfigError(
      'PUBLIC_URL must be set when SMTP_URL is: password reset mails link to it, never to the address a request names',
    );
  }
  let url: URL | null = null;
  try {
    url = new URL(smtpUrl);
  } catch {
    // Reported below.
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname || url.pathname.length > 1) {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example:587');
  }
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(from) && !/^[^\r\n<>]*<[^\s@<>"]+@[^\s@<>"]+>$/.test(from)) {
    throw new ConfigError(
      `MAIL_FROM must be an email address or Name <address>, such as TechIt <no-reply@techit.example> (got "${from}")`,
    );
  }
  return { smtpUrl, from };
}

function redisUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = text(env, 'REDIS_URL');
  if (raw === undefined) return null;
  let valid = /^rediss?:\/\//.test(raw);
  try {
    new URL(raw);
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL (unset it to count rate limits in memory)');
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

const RATE_LIMIT_SETTINGS: Record<RateLimitName, [setting: string, fallback: string]> = {
  api: ['RATE_LIMIT_API', '300/1m'],
  signIn: ['RATE_LIMIT_SIGN_IN', '10/1m'],
  signInUserName: ['RATE_LIMIT_SIGN_IN_USER_NAME', '10/1m'],
  signUp: ['RATE_LIMIT_SIGN_UP', '5/1h'],
  upload: ['RATE_LIMIT_UPLOAD', '30/30m'],
  content: ['RATE_LIMIT_CONTENT', '10/1m'],
  likeFollow: ['RATE_LIMIT_LIKE_FOLLOW', '60/1m'],
  // Autosave: one save every ~3 s per open editor is 20 a minute; 120 leaves room for six.
  drafts: ['RATE_LIMIT_DRAFTS', '120/1m'],
  preview: ['RATE_LIMIT_PREVIEW', '60/1m'],
  // Reports (POST /api/reports), per user: enough for a bad evening, too few to flood the queue.
  reports: ['RATE_LIMIT_REPORTS', '20/1h'],
  // Reset requests and confirmations per address; and requests per email address asked for, so one
  // inbox cannot be flooded from many addresses.
  passwordReset: ['RATE_LIMIT_PASSWORD_RESET', '10/1h'],
  passwordResetEmail: ['RATE_LIMIT_PASSWORD_RESET_EMAIL', '3/1h'],
};

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** Every rule is read (and a bad one refused) even when RATE_LIMITS=off, so a typo never waits to be found. */
function rateLimits(env: NodeJS.ProcessEnv): RateLimitRules | null {
  const rules = Object.fromEntries(
    RATE_LIMIT_NAMES.map((name) => [name, rateLimitRule(env, ...RATE_LIMIT_SETTINGS[name])]),
  ) as RateLimitRules;
  const raw = text(env, 'RATE_LIMITS') ?? 'on';
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`RATE_LIMITS must be on or off (got "${raw}")`);
  return raw === 'on' ? rules : null;
}

/** `<requests>/<window>`, the window a number and a unit (s, m or h; the number may be left out): 10/1m, 5/h, 3/2s. */
function rateLimitRule(env: NodeJS.ProcessEnv, name: string, fallback: string): RateLimitRule {
  const raw = text(env, name) ?? fallback;
  const match = /^(\d+)\/(\d*)([smh])$/.exec(raw);
  const limit = Number(match?.[1]);
  const windowSeconds = Number(match?.[2] || '1') * (UNIT_SECONDS[match?.[3] ?? ''] ?? NaN);
  if (!match || limit < 1 || limit > 1_000_000 || !(windowSeconds >= 1 && windowSeconds <= 86_400)) {
    throw new ConfigError(
      `${name} must be <requests>/<window> such as 10/1m, 5/1h or 3/2s: 1 to 1000000 requests in 1 s to 24 h (got "${raw}")`,
    );
  }
  return { limit, windowSeconds };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Off by default: X-Forwarded-For is whatever a client wants it to be, so it is believed only from
 * a proxy named here (or a known number of hops in front of this server).
 */
function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = text(env, 'TRUST_PROXY') ?? 'off';
  if (raw === 'off') return false;
  if (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 10) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => PROXY_NAMES.has(entry) || isAddressOrRange(entry))) return entries;
  throw new ConfigError(
    `TRUST_PROXY must be off, a number of proxy hops (1 to 10), or a comma list of proxy addresses or CIDR ranges (loopback, linklocal and uniquelocal allowed) (got "${raw}")`,
  );
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Node refuses a headers timeout longer than the whole request's, and so does this. */
function serverTimeouts(
  env: NodeJS.ProcessEnv,
): Pick<AppConfig, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'> {
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
  };
}
