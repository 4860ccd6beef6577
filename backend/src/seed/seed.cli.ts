import { loadConfig } from '../config/app-config';
import { runSeed, SEED_SUMMARY_FILE } from './run-seed';
import type { SeedSummary } from './seed-summary';
import { parseSeedArgs, SEED_USAGE, SeedUsageError } from './seed-options';

/** `npm run seed -- --users N --posts N … [--seed N] [--reset]`: fills the configured database. */
async function main(): Promise<void> {
  const options = parseSeedArgs(process.argv.slice(2));
  if (!options) {
    console.log(SEED_USAGE);
    return;
  }
  const config = loadConfig();
  // Midnight UTC: reruns on the same day with the same seed produce the very same rows.
  const now = new Date();
  now.setUTCHours(0, 0, 0, 0);
  console.log(
    `Seeding ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`} with seed ${options.seed}: ` +
      Object.entries(options.sizes)
        .map(([table, size]) => `${table} ${size}`)
        .join(', '),
  );
  const summary = await runSeed(config, { ...options, now, log: (line) => console.log(line) });
  console.log(summaryLine(summary));
  console.log(`Summary written to ${config.dataDir}/${SEED_SUMMARY_FILE}`);
}

function summaryLine(summary: SeedSummary): string {
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const tables = (Object.keys(summary.sizes) as (keyof SeedSummary['sizes'])[])
    .map((table) => `${table} ${summary.sizes[table]} (${seconds(summary.timings[table])})`)
    .join(', ');
  const { images, generate, commit, analyze, tags, post_tags, tag_prefs } = summary.timings;
  return (
    `Seeded ${summary.dialect} in ${seconds(summary.durationMs)}: ${tables}, ` +
    `tags with post tags and tag follows (${seconds(tags + post_tags + tag_prefs)}); ` +
    `generating ${seconds(generate)}, images ${seconds(images)}, indexes and commit ${seconds(commit)}, ` +
    `analyze ${seconds(analyze)}`
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = error instanceof SeedUsageError ? 2 : 1;
});
