import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import type { Dialect } from '@techit/backend/database/database.types';
import type { SeedSummary as StoredSeedSummary } from '@techit/backend/seed/seed-summary';
import type { SeedLandmarks, SeedSizes } from '@techit/backend/seed/seed-generator';
import { redactUrl } from '@techit/testkit/database-sandbox';
import { track } from '@techit/testkit/child-registry';

export const REPO_ROOT = resolve(__dirname, '../..');
export const BENCH_DATA_ROOT = resolve(__dirname, '../.data');
const SEED_CLI = join(REPO_ROOT, 'backend/dist/seed/seed.cli.js');
export const SQLITE_FILE = 'techit.sqlite';
const SUMMARY_FILE = 'seed-summary.json';

/**
 * What the data generator writes next to the data (DATA_DIR/seed-summary.json), as far as the
 * bench reads it. The bench's sizes (at least two users and a post) give every landmark but the
 * deep cursor, which needs more than 10,000 posts, and the popular tag, which needs a tagged post.
 */
export type SeedSummary = Pick<StoredSeedSummary, 'seed' | 'dialect' | 'sizes' | 'durationMs' | 'password'> & {
  landmarks: {
    [K in keyof SeedLandmarks]: K extends 'deepCursor' | 'popularTag' ? string | null : NonNullable<SeedLandmarks[K]>;
  };
};

export interface DataSet {
  dialect: Dialect;
  dir: string;
  /** null on SQLite. */
  databaseUrl: string | null;
  summary: SeedSummary;
  reused: boolean;
  /** How long this run spent seeding (0 when reused). */
  seedMs: number;
}

export interface DataSetRequest {
  dialect: Dialect;
  sizes: SeedSizes;
  seed: number;
  reseed: boolean;
  postgresUrl: string;
}

/** Seeds the data set these sizes describe, or reuses the one a previous run left. */
export async function prepareDataSet(request: DataSetRequest): Promise<DataSet> {
  const databaseUrl = request.dialect === 'postgres' ? request.postgresUrl : null;
  if (databaseUrl) await ensurePostgresDatabase(databaseUrl);
  const key = dataSetKey(request, databaseUrl);
  const dir = join(BENCH_DATA_ROOT, `${request.dialect}-${key}`);
  mkdirSync(dir, { recursive: true });

  if (!request.reseed) {
    const existing = readSeedSummary(join(dir, SUMMARY_FILE));
    const why = existing ? await whyNotReusable(existing, request, dir, databaseUrl, key) : 'no data set yet';
    if (existing && why === null) {
      console.log(`Reusing the ${request.dialect} data set in ${dir}`);
      return { dialect: request.dialect, dir, databaseUrl, summary: existing, reused: true, seedMs: 0 };
    }
    console.log(`Seeding ${request.dialect} into ${dir} (${why})`);
  } else {
    console.log(`Seeding ${request.dialect} into ${dir} (--reseed)`);
  }

  // A seed that dies half-way must not leave a summary that looks valid.
  rmSync(join(dir, SUMMARY_FILE), { force: true });
  if (databaseUrl) await setPostgresMarker(databaseUrl, null);
  const started = Date.now();
  await runSeed(request, dir, databaseUrl);
  if (databaseUrl) await setPostgresMarker(databaseUrl, key);
  const seedMs = Date.now() - started;
  const summary = readSeedSummary(join(dir, SUMMARY_FILE));
  if (!summary) throw new Error(`The seed finished but ${join(dir, SUMMARY_FILE)} is missing or malformed`);
  const why = await whyNotReusable(summary, request, dir, databaseUrl, key);
  if (why !== null) throw new Error(`The seed finished but its data set does not match: ${why}`);
  return { dialect: request.dialect, dir, databaseUrl, summary, reused: false, seedMs };
}

function dataSetKey(request: DataSetRequest, databaseUrl: string | null): string {
  // The PostgreSQL target is part of the key (without its password) so two servers never share a folder.
  const target = databaseUrl ? redactUrl(databaseUrl) : null;
  return createHash('sha256')
    .update(JSON.stringify({ sizes: request.sizes, seed: request.seed, target }))
    .digest('hex')
    .slice(0, 10);
}

async function whyNotReusable(
  summary: SeedSummary,
  request: DataSetRequest,
  dir: string,
  databaseUrl: string | null,
  key: string,
): Promise<string | null> {
  if (summary.dialect !== request.dialect) return `the summary is for ${summary.dialect}`;
  if (summary.seed !== request.seed) return `the summary has seed ${summary.seed}`;
  for (const key of Object.keys(request.sizes) as (keyof SeedSizes)[]) {
    if (summary.sizes[key] !== request.sizes[key]) return `the summary has ${summary.sizes[key]} ${key}`;
  }
  if (databaseUrl) {
    // One PostgreSQL database serves every size: it may have been reseeded with other sizes (or
    // emptied by hand) since this summary was written.
    const marker = await readPostgresMarker(databaseUrl);
    if (marker !== key)
      return marker ? `the database holds data set ${marker}` : 'the database holds no seeded data set';
    const posts = await countPostgresPosts(databaseUrl);
    if (posts !== request.sizes.posts) return `the database holds ${posts ?? 'no'} posts`;
  } else if (!existsSync(join(dir, SQLITE_FILE))) {
    return 'the SQLite file is missing';
  }
  return null;
}

function runSeed(request: DataSetRequest, dir: string, databaseUrl: string | null): Promise<void> {
  if (!existsSync(SEED_CLI)) {
    return Promise.reject(new Error(`${SEED_CLI} is missing: build the backend first (npm run build -w backend)`));
  }
  const args = [SEED_CLI, '--seed', String(request.seed), '--reset'];
  for (const [key, value] of Object.entries(request.sizes)) args.push(`--${key}`, String(value));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  console.log(`$ node ${args.map((arg) => arg.replace(REPO_ROOT + '/', '')).join(' ')}`);
  return new Promise((resolvePromise, reject) => {
    const child = track(spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: 'inherit' }));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`The seed failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/** Creates the bench database when the server has none by that name (CREATE DATABASE needs another one). */
async function ensurePostgresDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!name) throw new Error(`The PostgreSQL URL ${redactUrl(url)} names no database`);
  const admin = new URL(url);
  admin.pathname = name === 'postgres' ? '/template1' : '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      console.log(`Creating the PostgreSQL database "${name}"`);
      await client.query(`create database "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

/** A bench-only table naming the data set the database holds (the app never reads it). */
const MARKER_TABLE = 'techit_bench_data_set';

async function setPostgresMarker(url: string, key: string | null): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create table if not exists ${MARKER_TABLE} (key text not null)`);
    await client.query(`delete from ${MARKER_TABLE}`);
    if (key) await client.query(`insert into ${MARKER_TABLE} (key) values ($1)`, [key]);
  } finally {
    await client.end();
  }
}

async function readPostgresMarker(url: string): Promise<string | null> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query<{ found: string | null }>(`select to_regclass('${MARKER_TABLE}')::text as found`);
    if (!table.rows[0]?.found) return null;
    const result = await client.query<{ key: string }>(`select key from ${MARKER_TABLE} limit 1`);
    return result.rows[0]?.key ?? null;
  } finally {
    await client.end();
  }
}

async function countPostgresPosts(url: string): Promise<number | null> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query<{ found: string | null }>("select to_regclass('posts')::text as found");
    if (!table.rows[0]?.found) return null;
    const result = await client.query<{ count: string }>('select count(*)::text as count from posts');
    return Number(result.rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

/** Parses the summary defensively: a file from an older generator must read as "seed again", not crash. */
export function readSeedSummary(path: string): SeedSummary | null {
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  if (!isRecord(raw) || !isRecord(raw.sizes) || !isRecord(raw.landmarks)) return null;
  const { sizes, landmarks } = raw;
  const sizeKeys: (keyof SeedSizes)[] = ['users', 'posts', 'likes', 'comments', 'follows', 'notices'];
  if (!sizeKeys.every((key) => typeof sizes[key] === 'number')) return null;
  const textKeys = ['viralPostId', 'manyCommentsPostId', 'heavyFollowerId', 'profileUserId', 'signInUserName'];
  if (!textKeys.every((key) => typeof landmarks[key] === 'string')) return null;
  if (typeof raw.password !== 'string' || (raw.dialect !== 'sqlite' && raw.dialect !== 'postgres')) return null;
  if (landmarks.deepCursor !== null && typeof landmarks.deepCursor !== 'string') return null;
  // Absent from the summaries of seeds before posts had tags: that data set has no tags to measure.
  const followedTags = landmarks.signInUserFollowedTags;
  if (!Array.isArray(followedTags) || !followedTags.every((tag) => typeof tag === 'string')) return null;
  const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
  const str = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    seed: num(raw.seed),
    dialect: raw.dialect,
    sizes: {
      users: num(sizes.users),
      posts: num(sizes.posts),
      likes: num(sizes.likes),
      comments: num(sizes.comments),
      follows: num(sizes.follows),
      notices: num(sizes.notices),
    },
    durationMs: num(raw.durationMs),
    password: raw.password,
    landmarks: {
      viralPostId: str(landmarks.viralPostId),
      viralPostLikes: num(landmarks.viralPostLikes),
      manyCommentsPostId: str(landmarks.manyCommentsPostId),
      manyCommentsPostComments: num(landmarks.manyCommentsPostComments),
      heavyFollowerId: str(landmarks.heavyFollowerId),
      heavyFollowerUserName: str(landmarks.heavyFollowerUserName),
      heavyFollowerFollows: num(landmarks.heavyFollowerFollows),
      profileUserId: str(landmarks.profileUserId),
      signInUserName: str(landmarks.signInUserName),
      deepCursor: typeof landmarks.deepCursor === 'string' ? landmarks.deepCursor : null,
      popularTag: typeof landmarks.popularTag === 'string' ? landmarks.popularTag : null,
      signInUserFollowedTags: followedTags,
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
