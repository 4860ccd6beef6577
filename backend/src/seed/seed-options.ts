import type { SeedSizes } from './seed-generator';

export interface SeedOptions {
  sizes: SeedSizes;
  seed: number;
  reset: boolean;
}

/** A flag the seeder cannot use: the CLI prints this one line and exits with code 2. */
export class SeedUsageError extends Error {}

export const DEFAULT_SIZES: Readonly<SeedSizes> = {
  users: 10_000,
  posts: 100_000,
  likes: 1_000_000,
  comments: 300_000,
  follows: 200_000,
  notices: 20_000,
};

export const DEFAULT_SEED = 1;

export const SEED_USAGE =
  'Usage: npm run seed -- [--users N] [--posts N] [--likes N] [--comments N] [--follows N] [--notices N] [--seed N] [--reset]';

/** Far beyond any benchmark here, and small enough that counts stay exact in a double. */
const MAX_SIZE = 100_000_000;
const SIZE_FLAGS = Object.keys(DEFAULT_SIZES) as (keyof SeedSizes)[];

/** `--name value` or `--name=value`; returns null for --help. */
export function parseSeedArgs(args: readonly string[]): SeedOptions | null {
  const sizes: SeedSizes = { ...DEFAULT_SIZES };
  let seed = DEFAULT_SEED;
  let reset = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--help' || arg === '-h') return null;
    if (arg === '--reset') {
      reset = true;
      continue;
    }
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    const name = match?.[1];
    if (!match || !name || (name !== 'seed' && !(SIZE_FLAGS as string[]).includes(name))) {
      throw new SeedUsageError(`Unknown argument "${arg}". ${SEED_USAGE}`);
    }
    let raw = match[2];
    if (raw === undefined) {
      index += 1;
      raw = args[index];
    }
    if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) > (name === 'seed' ? 0xffffffff : MAX_SIZE)) {
      const range = name === 'seed' ? `0 to ${0xffffffff}` : `0 to ${MAX_SIZE}`;
      throw new SeedUsageError(
        `--${name} needs a whole number from ${range} (got ${raw === undefined ? 'nothing' : `"${raw}"`})`,
      );
    }
    if (name === 'seed') seed = Number(raw);
    else sizes[name as keyof SeedSizes] = Number(raw);
  }
  if (sizes.users === 0 && (sizes.posts > 0 || sizes.notices > 0 || sizes.follows > 0)) {
    throw new SeedUsageError('--users must be at least 1 when there are posts, notices or follows to write');
  }
  return { sizes, seed, reset };
}
