import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PasswordHasher } from '../auth/password-hasher';
import { createDatabase, type DatabaseOptions } from '../database/create-database';
import { migrateToLatest } from '../database/migrations';
import type { BulkWriter } from './bulk-writer';
import { PostgresBulkWriter } from './postgres-bulk-writer';
import { Random } from './random';
import { generateSeed } from './seed-generator';
import { seedImages, uploadPipeline } from './seed-images';
import { type SeedOptions, SeedUsageError } from './seed-options';
import type { SeedSummary } from './seed-summary';
import { SqliteBulkWriter } from './sqlite-bulk-writer';

/** Every seeded account signs in with this (hashed once: argon2 per user would take minutes). */
export const SEED_PASSWORD = 'techit-seed-password';
export const SEED_SUMMARY_FILE = 'seed-summary.json';
export const DEFAULT_IMAGE_COUNT = 24;
export const DEFAULT_DEEP_CURSOR_AFTER = 10_000;

export interface SeedRunOptions extends SeedOptions {
  /** The end of the two years the data spans; the CLI uses the start of the current UTC day. */
  now: Date;
  imageCount?: number;
  deepCursorAfter?: number;
  log?: (line: string) => void;
}

/**
 * Fills the database the server would open for `target` (migrating it first) and writes the
 * summary beside its data. Refuses a database that already holds posts unless `reset` is set.
 */
export async function runSeed(target: DatabaseOptions, options: SeedRunOptions): Promise<SeedSummary> {
  const log = options.log ?? ((): void => undefined);
  const started = performance.now();
  const handle = createDatabase(target);
  try {
    await migrateToLatest(handle.db, handle.dialect);
  } finally {
    await handle.db.destroy();
  }

  const writer: BulkWriter = target.databaseUrl
    ? new PostgresBulkWriter(target.databaseUrl)
    : new SqliteBulkWriter(target.dataDir);
  try {
    if (options.reset) {
      log(`Emptying the ${writer.dialect} tables`);
      await writer.reset();
    } else if ((await writer.countPosts()) > 0) {
      throw new SeedUsageError('The database already holds posts; run again with --reset to replace everything in it');
    }

    const random = new Random(options.seed);
    let stepStarted = performance.now();
    const images = await seedImages(
      random.fork(),
      options.imageCount ?? DEFAULT_IMAGE_COUNT,
      uploadPipeline(target.dataDir),
    );
    const imagesMs = performance.now() - stepStarted;
    log(`Stored ${images.length} images through the upload pipeline (${(imagesMs / 1000).toFixed(1)} s)`);
    const passwordHash = await new PasswordHasher().hash(SEED_PASSWORD);

    stepStarted = performance.now();
    await writer.begin();
    let generated;
    let commitStarted = 0;
    try {
      generated = await generateSeed(writer, {
        seed: random.fork().int(0, 0xffffffff),
        sizes: options.sizes,
        now: options.now,
        imageUrls: images,
        passwordHash,
        deepCursorAfter: options.deepCursorAfter ?? DEFAULT_DEEP_CURSOR_AFTER,
        progress: log,
      });
      commitStarted = performance.now();
      await writer.commit();
    } catch (error) {
      // The load's own error is the one worth reporting, not a failed rollback on a broken link.
      await writer.rollback().catch(() => undefined);
      throw error;
    }
    const commitMs = performance.now() - commitStarted;
    const loadMs = performance.now() - stepStarted - commitMs;

    stepStarted = performance.now();
    await writer.analyze();
    const analyzeMs = performance.now() - stepStarted;

    const insertMs = Object.values(generated.insertMs).reduce((sum, ms) => sum + ms, 0);
    const summary: SeedSummary = {
      seed: options.seed,
      dialect: writer.dialect,
      sizes: generated.sizes,
      durationMs: Math.round(performance.now() - started),
      password: SEED_PASSWORD,
      landmarks: generated.landmarks,
      images,
      timings: {
        ...roundAll(generated.insertMs),
        images: Math.round(imagesMs),
        generate: Math.round(loadMs - insertMs),
        commit: Math.round(commitMs),
        analyze: Math.round(analyzeMs),
      },
    };
    await writeFile(join(target.dataDir, SEED_SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
    return summary;
  } finally {
    await writer.close();
  }
}

function roundAll<K extends string>(values: Record<K, number>): Record<K, number> {
  const rounded = { ...values };
  for (const key of Object.keys(rounded) as K[]) rounded[key] = Math.round(rounded[key]);
  return rounded;
}
