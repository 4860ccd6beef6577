import { parseArgs } from 'node:util';
import type { SeedSizes } from '@techit/backend/seed/seed-generator';
import { DEFAULT_SEED, DEFAULT_SIZES } from '@techit/backend/seed/seed-options';

export type DbChoice = 'sqlite' | 'postgres' | 'both';

export interface BenchOptions {
  db: DbChoice;
  sizes: SeedSizes;
  seed: number;
  /** Seconds of measurement per scenario and target. */
  duration: number;
  /** Seconds of load before each measurement, thrown away (JIT, page cache, connection set-up). */
  warmup: number;
  /** Reads: the real and the limit server measured in this many alternating rounds (1 with --cpu-prof). */
  rounds: number;
  connections: number;
  /** Scenario names to run; null runs them all. */
  only: ReadonlySet<string> | null;
  label: string;
  /** Seed again even when a matching data set exists. */
  reseed: boolean;
  /** Profile the server (V8 CPU profile) over the measured load and print a flame summary. */
  cpuProf: boolean;
  postgresUrl: string;
}

const DEFAULT_POSTGRES_URL = 'postgres://postgres:postgres@127.0.0.1:5432/techit_bench';

export const USAGE = `Usage: npm run bench -- [options]

  --db sqlite|postgres|both   database(s) to measure (default sqlite)
  --users N --posts N --likes N --comments N --follows N --notices N
                              data set sizes (default ${Object.entries(DEFAULT_SIZES)
                                .map(([key, value]) => `${key} ${value}`)
                                .join(', ')})
  --seed N                    random seed of the generator (default ${DEFAULT_SEED})
  --duration S                measured seconds per scenario (default 10)
  --warmup S                  unmeasured seconds before each measurement (default 2)
  --rounds N                  reads: real and limit server in N alternating rounds of duration/N
                              seconds; the ratio is the median round's (default 3; 1 with --cpu-prof)
  --connections N             concurrent connections (default 50)
  --only a,b,c                run only these scenarios (names as printed in the table)
  --label TEXT                goes into the results file name and JSON (default "run")
  --reseed                    seed again even when a matching data set exists
  --cpu-prof                  CPU-profile the server during the measured load; prints a flame summary
                              and keeps the .cpuprofile (open it in Chrome DevTools)
  --help

PostgreSQL: BENCH_DATABASE_URL, else ${DEFAULT_POSTGRES_URL} (created when missing).`;

export class OptionsError extends Error {}

export function parseBenchOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      db: { type: 'string', default: 'sqlite' },
      users: { type: 'string' },
      posts: { type: 'string' },
      likes: { type: 'string' },
      comments: { type: 'string' },
      follows: { type: 'string' },
      notices: { type: 'string' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      only: { type: 'string' },
      label: { type: 'string', default: 'run' },
      reseed: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';

  if (values.db !== 'sqlite' && values.db !== 'postgres' && values.db !== 'both') {
    throw new OptionsError(`--db must be sqlite, postgres or both (got "${values.db}")`);
  }
  // The seed's own defaults (the issue's community-scale data set); the bench needs two users and a post.
  const sizes: SeedSizes = {
    users: count('users', values.users, DEFAULT_SIZES.users, 2),
    posts: count('posts', values.posts, DEFAULT_SIZES.posts, 1),
    likes: count('likes', values.likes, DEFAULT_SIZES.likes, 0),
    comments: count('comments', values.comments, DEFAULT_SIZES.comments, 0),
    follows: count('follows', values.follows, DEFAULT_SIZES.follows, 0),
    notices: count('notices', values.notices, DEFAULT_SIZES.notices, 0),
  };
  const label = values.label.trim();
  if (!/^[A-Za-z0-9._-]{1,60}$/.test(label)) {
    throw new OptionsError('--label may use letters, digits, ".", "_" and "-" (1 to 60 characters)');
  }
  const only = values.only
    ? new Set(
        values.only
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name.length > 0),
      )
    : null;
  return {
    db: values.db,
    sizes,
    seed: count('seed', values.seed, DEFAULT_SEED, 0),
    duration: count('duration', values.duration, 10, 1),
    warmup: count('warmup', values.warmup, 2, 0),
    rounds: values['cpu-prof'] ? 1 : count('rounds', values.rounds, 3, 1),
    connections: count('connections', values.connections, 50, 1),
    only,
    label,
    reseed: values.reseed,
    cpuProf: values['cpu-prof'],
    postgresUrl: env.BENCH_DATABASE_URL?.trim() || DEFAULT_POSTGRES_URL,
  };
}

function count(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const cleaned = raw.replace(/_/g, '');
  const value = Number(cleaned);
  if (!/^\d+$/.test(cleaned) || !Number.isSafeInteger(value) || value < min) {
    throw new OptionsError(`--${name} must be a whole number ≥ ${min} (got "${raw}")`);
  }
  return value;
}
