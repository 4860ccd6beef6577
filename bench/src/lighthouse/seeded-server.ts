import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SeedSummary } from '@techit/backend/seed/seed-summary';
import { launchServer, serverMain, WEB_DIST as BUILT_WEB_DIST } from '@techit/testkit/server-launcher';

/**
 * Another server build (LIGHTHOUSE_SERVER_MAIN: its main.js; the seed CLI is taken from the same
 * build) or web build (LIGHTHOUSE_WEB_DIST) can be measured, e.g. a copy that others' rebuilds of
 * backend/dist and frontend/dist cannot change halfway through a run, or an older commit for a
 * before/after comparison.
 */
export const SERVER_MAIN = serverMain('LIGHTHOUSE_SERVER_MAIN');
const SEED_CLI = join(dirname(SERVER_MAIN), 'seed', 'seed.cli.js');
export const WEB_DIST = resolve(process.env.LIGHTHOUSE_WEB_DIST ?? BUILT_WEB_DIST);
const WEB_INDEX = join(WEB_DIST, 'index.html');
const HEALTH_TIMEOUT_MS = 60_000;

/** A community large enough for full feeds, a viral post and a busy profile, small enough to seed in seconds. */
export const SEED_SIZES = {
  users: 200,
  posts: 2000,
  likes: 20000,
  comments: 4000,
  follows: 2000,
  notices: 200,
} as const;

export interface Landmarks {
  viralPostId: string;
  profileUserId: string;
  /** A seeded member who signs in (every seeded account shares `password`). */
  signInUserName: string;
  password: string;
  /** The tag on the most posts: its page is a full one. */
  popularTag: string;
}

export interface SeededServer {
  baseUrl: string;
  landmarks: Landmarks;
  stop(): Promise<void>;
}

function requireBuilt(): void {
  for (const [file, what] of [
    [SERVER_MAIN, 'the backend (npm run build -w backend)'],
    [SEED_CLI, 'the backend with its seed CLI (npm run build -w backend)'],
    [WEB_INDEX, 'the web app (npm run build -w frontend)'],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build ${what} first, or run npm run lighthouse`);
  }
}

/** The repository's seed CLI, on SQLite in dataDir; its summary names the pages worth auditing. */
export async function seed(dataDir: string): Promise<Landmarks> {
  requireBuilt();
  const args = Object.entries(SEED_SIZES).flatMap(([table, size]) => [`--${table}`, String(size)]);
  await run(process.execPath, [SEED_CLI, ...args, '--reset'], dataDir, { DATA_DIR: dataDir });
  const summary = JSON.parse(readFileSync(join(dataDir, 'seed-summary.json'), 'utf8')) as Pick<
    SeedSummary,
    'password' | 'landmarks'
  >;
  const { viralPostId, profileUserId, signInUserName, popularTag } = summary.landmarks;
  if (!viralPostId || !profileUserId || !signInUserName || !popularTag) {
    throw new Error('The seed summary names no viral post, profile user, sign-in user or popular tag');
  }
  return { viralPostId, profileUserId, signInUserName, password: summary.password, popularTag };
}

/** The production server exactly as `npm start` runs it (SQLite in dataDir), on a free loopback port. */
export async function startServer(dataDir: string, landmarks: Landmarks): Promise<SeededServer> {
  requireBuilt();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: WEB_DIST,
    LOG_LEVEL: 'warn',
    // What is measured here is the pages, not the defences against abuse: Lighthouse's runs, from
    // one address, would soon exceed the per-IP limits.
    RATE_LIMITS: 'off',
  };
  delete env.DATABASE_URL;
  const server = await launchServer({
    main: SERVER_MAIN,
    // The data folder, so a developer's ./.env cannot change what is measured.
    cwd: dataDir,
    env,
    output: { file: join(dataDir, 'server.log') },
    startTimeoutMs: HEALTH_TIMEOUT_MS,
  });
  return {
    baseUrl: server.url,
    landmarks,
    stop: async () => {
      await server.stop();
    },
  };
}

function run(command: string, args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
    delete env.DATABASE_URL;
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} exited with code ${String(code)}`)),
    );
  });
}
