import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { STORAGE_KEYS } from '@techit/contract/limits';
import { launchChromium } from '@techit/testkit/chromium-launcher';
import { kb, measureInitialDownload } from '@techit/testkit/initial-download';
import { REPO_ROOT } from '@techit/testkit/server-launcher';
import { type Browser, type Page, connect } from 'puppeteer-core';
import { type AuditFixtures, SEARCH_WORD, prepareAuditFixtures } from './audit-fixtures';
import { SEED_SIZES, SERVER_MAIN, WEB_DIST, seed, startServer } from './seeded-server';

/**
 * `npm run lighthouse`: Lighthouse's default (mobile) preset, with its simulated throttling, on
 * the pages of a seeded production server that readers see most (home, a post with code, search,
 * a tag, the signed-in reader's notifications, the viral post, a profile); fails when a page
 * scores below the issue's targets, or when the initial JS + CSS of `/` is over its 250 KB gzip
 * budget (the same measurement as e2e/tests/bundle-budget.test.ts).
 *
 * Flags: --runs N (default 3; each page's median run by performance is reported), --keep (keep
 * the data folder with the server log and every full report), --cpu-slowdown N (Lighthouse's
 * default is 4, meant for a fast desktop host; Lighthouse's throttling guide says to lower it on a
 * slower host: every run records the host's benchmarkIndex to judge by), --pages home,post,profile
 * (only those pages, while working on one; the names are PAGES below).
 *
 * LIGHTHOUSE_WEB_DIST and LIGHTHOUSE_SERVER_MAIN measure other builds (seeded-server.ts).
 */
const THRESHOLDS = { performance: 90, accessibility: 95, 'best-practices': 95, seo: 95 } as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
} as const;

const PAGES = ['home', 'code-post', 'search', 'tag', 'notifications', 'post', 'profile'] as const;

type Category = (typeof CATEGORIES)[number];
type PageKey = (typeof PAGES)[number];

/** The parts of Lighthouse's result (LH.Result) this runner reads. */
interface LighthouseResult {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  environment: { benchmarkIndex: number };
  runWarnings: string[];
  /** Set when the run as a whole failed (then every score is null). */
  runtimeError?: { code: string; message: string };
  configSettings: { formFactor: string; throttlingMethod: string; throttling: { cpuSlowdownMultiplier: number } };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      displayValue?: string;
      numericValue?: number;
      /** Why an audit could not be scored (its score is null then). */
      errorMessage?: string;
    }
  >;
}
interface RunnerResult {
  lhr: LighthouseResult;
}
type LighthouseFn = (
  url: string,
  flags: Record<string, unknown>,
  config: undefined,
  page: Page,
) => Promise<RunnerResult | undefined>;

interface Target {
  name: string;
  path: string;
  /** Audited signed in as the fixtures' reader (the page is for members only). */
  signedIn?: boolean;
}

/**
 * Lighthouse's SEO audit "Page is blocked from indexing" (is-crawlable) fails every page the
 * site's robots.txt disallows, whatever the reason. The server disallows /search (endless result
 * pages) and the members' screens such as /notifications on purpose (decision 045); decision 052
 * keeps that and leaves is-crawlable out of the SEO score of exactly those pages, read from the
 * served robots.txt, so a page that robots.txt does not disallow is always scored on it.
 */
const CRAWL_AUDIT = 'is-crawlable';
const RECORDING_RETRIES = 2;

async function robotsDisallowed(baseUrl: string): Promise<RegExp[]> {
  const reply = await fetch(`${baseUrl}/robots.txt`);
  if (!reply.ok) throw new Error(`/robots.txt answered ${reply.status}`);
  return (await reply.text())
    .split('\n')
    .map((line) => /^Disallow:\s*(\S+)/i.exec(line.trim())?.[1])
    .filter((rule): rule is string => rule !== undefined)
    .map((rule) => new RegExp(`^${rule.split('*').map(escapeRegExp).join('.*')}`));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The page Lighthouse drives: a new tab of the shared browser, and for a signed-in page the
 * session put where the web app keeps it (lib/storage.ts: localStorage) by a script that runs in
 * every document before the app's own. Lighthouse clears the origin's storage (and the HTTP cache)
 * before it navigates, so a session stored beforehand would be gone; this one is written after.
 */
async function auditPage(browserPage: () => Promise<Page>, fixtures: AuditFixtures, target: Target): Promise<Page> {
  const page = await browserPage();
  if (target.signedIn) {
    const session = {
      [STORAGE_KEYS.token]: fixtures.reader.token,
      [STORAGE_KEYS.user]: JSON.stringify(fixtures.reader.user),
    };
    await page.evaluateOnNewDocument((entries: Record<string, string>) => {
      // about:blank has no storage of its own to write to.
      if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, session);
  }
  return page;
}

interface PageResult {
  name: string;
  path: string;
  scores: Record<Category, number | null>;
  metrics: Record<string, string | undefined>;
  /** Every run's performance score, in run order. */
  performanceRuns: (number | null)[];
  /** Every run's host CPU benchmark (Lighthouse's benchmarkIndex), in run order. */
  benchmarkIndexes: number[];
  /** Audits that lost points in the median run, for the next fix. */
  failing: { category: string; id: string; title: string; score: number | null; displayValue?: string }[];
  warnings: string[];
}

interface Args {
  runs: number;
  keep: boolean;
  cpuSlowdown: number | null;
  pages: PageKey[];
}

function parseArgs(argv: string[]): Args {
  let runs = 3;
  let keep = false;
  let cpuSlowdown: number | null = null;
  let pages: PageKey[] = [...PAGES];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--keep') keep = true;
    else if (arg === '--pages') {
      const asked = (argv[(index += 1)] ?? '').split(',');
      pages = PAGES.filter((page) => asked.includes(page));
      if (pages.length !== asked.length) throw new Error(`--pages takes a comma-separated list of ${PAGES.join(', ')}`);
    } else if (arg === '--runs') {
      runs = Number(argv[(index += 1)]);
      if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1');
    } else if (arg === '--cpu-slowdown') {
      cpuSlowdown = Number(argv[(index += 1)]);
      if (!(cpuSlowdown >= 1)) throw new Error('--cpu-slowdown takes a number ≥ 1');
    } else {
      throw new Error(
        `Unknown argument "${arg}". Usage: run-lighthouse [--runs N] [--keep] [--cpu-slowdown N] [--pages ${PAGES.join(',')}]`,
      );
    }
  }
  return { runs, keep, cpuSlowdown, pages };
}

/** Why a run has no performance score: its runtime error, or its metrics' own errors. */
function unscoredReasons(lhr: LighthouseResult): string[] {
  if (lhr.categories.performance?.score !== null) return [];
  if (lhr.runtimeError) return [`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`];
  return Object.keys(METRICS)
    .map((id) => lhr.audits[id])
    .filter((audit) => audit?.errorMessage)
    .map((audit) => `${audit.id}: ${audit.errorMessage}`);
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

const score = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : Math.round(value * 100);

function summarise(name: string, path: string, runs: LighthouseResult[]): PageResult {
  const ordered = [...runs].sort(
    (a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0),
  );
  const median = ordered[Math.floor((ordered.length - 1) / 2)];
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, score(median.categories[category]?.score)]),
  ) as Record<Category, number | null>;
  const metrics = Object.fromEntries(
    Object.entries(METRICS).map(([id, label]) => [label, median.audits[id]?.displayValue]),
  );
  const failing: PageResult['failing'] = [];
  for (const category of CATEGORIES) {
    for (const ref of median.categories[category]?.auditRefs ?? []) {
      const audit = median.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 0.9) continue;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable') continue;
      failing.push({
        category,
        id: audit.id,
        title: audit.title,
        score: score(audit.score),
        displayValue: audit.displayValue,
      });
    }
  }
  return {
    name,
    path,
    scores,
    metrics,
    performanceRuns: runs.map((run) => score(run.categories.performance?.score)),
    benchmarkIndexes: runs.map((run) => Math.round(run.environment.benchmarkIndex)),
    failing,
    warnings: median.runWarnings,
  };
}

function table(pages: PageResult[]): string {
  const header = ['Page', 'Path', 'Performance', 'Accessibility', 'Best practices', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS'];
  const rows = pages.map((page) => [
    page.name,
    `\`${page.path}\``,
    ...CATEGORIES.map((category) => String(page.scores[category] ?? '–')),
    ...['FCP', 'LCP', 'TBT', 'CLS'].map((metric) => page.metrics[metric] ?? '–'),
  ]);
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function belowTargets(pages: PageResult[]): string[] {
  const problems: string[] = [];
  for (const page of pages) {
    for (const [category, minimum] of Object.entries(THRESHOLDS) as [Category, number][]) {
      const value = page.scores[category];
      if (value === null || value < minimum) {
        problems.push(`${page.name} (${page.path}): ${category} ${value ?? 'no score'} < ${minimum}`);
      }
    }
  }
  return problems;
}

async function main(): Promise<void> {
  const { runs, keep, cpuSlowdown, pages: pageKeys } = parseArgs(process.argv.slice(2));
  // An ES module: TypeScript's CommonJS output loads it with require(), which Node ≥ 20.19 allows.
  const { default: lighthouse } = (await import('lighthouse')) as unknown as { default: LighthouseFn };
  const dataDir = await mkdtemp(join(tmpdir(), 'techit-lighthouse-'));
  console.log(
    `Seeding SQLite in ${dataDir}: ${Object.entries(SEED_SIZES)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
  const initialDownload = measureInitialDownload(WEB_DIST);
  const landmarks = await seed(dataDir);
  const server = await startServer(dataDir, landmarks);
  // A missing or failing browser must not leave the server running (the process would not exit).
  let fixtures: AuditFixtures;
  let disallowed: RegExp[];
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  try {
    fixtures = await prepareAuditFixtures(server.baseUrl, landmarks);
    disallowed = await robotsDisallowed(server.baseUrl);
    chromium = await launchChromium();
  } catch (error) {
    await server.stop();
    throw error;
  }
  const pages: PageResult[] = [];
  let settings = '';
  // Lighthouse's simulated throttling scales the host's own CPU time: a busy host scores lower.
  const loadAverageAtStart = loadavg()[0];
  let browser: Browser | undefined;
  try {
    browser = await connect({ browserURL: `http://127.0.0.1:${chromium.port}`, defaultViewport: null });
    const tabs = browser;
    const allTargets: Record<PageKey, Target> = {
      home: { name: 'Home (for-you feed)', path: '/' },
      'code-post': { name: 'Post with code', path: `/posts/${fixtures.codePostId}` },
      search: { name: 'Search', path: `/search?q=${SEARCH_WORD}` },
      tag: { name: 'Tag', path: `/t/${encodeURIComponent(landmarks.popularTag)}` },
      notifications: { name: 'Notifications (signed in)', path: '/notifications', signedIn: true },
      post: { name: 'Post detail (viral post)', path: `/posts/${landmarks.viralPostId}` },
      profile: { name: 'Profile', path: `/profile/${landmarks.profileUserId}` },
    };
    for (const target of pageKeys.map((key) => allTargets[key])) {
      const results: LighthouseResult[] = [];
      const skipAudits = disallowed.some((rule) => rule.test(target.path)) ? [CRAWL_AUDIT] : [];
      if (skipAudits.length > 0) {
        console.log(
          `  ${target.path}: robots.txt disallows it, so SEO is scored without ${CRAWL_AUDIT} (decision 052)`,
        );
      }
      const audit = async (): Promise<RunnerResult> => {
        const page = await auditPage(() => tabs.newPage(), fixtures, target);
        const outcome = await lighthouse(
          `${server.baseUrl}${target.path}`,
          {
            output: 'json',
            logLevel: 'error',
            onlyCategories: [...CATEGORIES],
            skipAudits,
            ...(cpuSlowdown === null ? {} : { throttling: { cpuSlowdownMultiplier: cpuSlowdown } }),
          },
          undefined,
          page,
        ).finally(() => page.close());
        if (!outcome) throw new Error(`Lighthouse returned nothing for ${target.path}`);
        return outcome;
      };
      for (let run = 1; run <= runs; run += 1) {
        let outcome = await audit();
        // A failed recording (NO_NAVSTART, NO_FCP on a busy host…) measured nothing: Lighthouse's
        // own message says to run it again, so a run is repeated up to twice; a third failure counts.
        for (let retry = 1; retry <= RECORDING_RETRIES && outcome.lhr.runtimeError; retry += 1) {
          console.log(`  ${target.path} run ${run}/${runs}: ${outcome.lhr.runtimeError.code}, recorded again`);
          outcome = await audit();
        }
        // A signed-in page that sent its visitor home would be audited as the wrong page.
        if (new URL(outcome.lhr.finalDisplayedUrl).pathname !== new URL(target.path, server.baseUrl).pathname) {
          throw new Error(`${target.path} ended on ${outcome.lhr.finalDisplayedUrl}`);
        }
        results.push(outcome.lhr);
        const { formFactor, throttlingMethod } = outcome.lhr.configSettings;
        const { cpuSlowdownMultiplier } = outcome.lhr.configSettings.throttling;
        settings = `Lighthouse ${outcome.lhr.lighthouseVersion}, ${formFactor}, ${throttlingMethod} throttling, CPU slowdown ${cpuSlowdownMultiplier}×`;
        if (keep) {
          const name = `${target.path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}-${run}.json`;
          writeFileSync(join(dataDir, name), JSON.stringify(outcome.lhr));
        }
        console.log(
          `  ${target.path} run ${run}/${runs}: performance ${score(outcome.lhr.categories.performance?.score)}` +
            ` (host benchmarkIndex ${Math.round(outcome.lhr.environment.benchmarkIndex)})`,
        );
        // A run without a performance score counts as its lowest (summarise); say why it has none.
        for (const reason of unscoredReasons(outcome.lhr)) console.log(`    no score: ${reason}`);
      }
      const name = skipAudits.length > 0 ? `${target.name} (SEO without ${CRAWL_AUDIT})` : target.name;
      pages.push(summarise(name, target.path, results));
    }
  } finally {
    await browser?.disconnect();
    await chromium.stop();
    await server.stop();
    if (!keep) await rm(dataDir, { recursive: true, force: true });
  }

  console.log(
    `\n${settings}, median of ${runs} run(s) per page, load average ${loadAverageAtStart.toFixed(2)} → ${loadavg()[0].toFixed(2)}\n\n${table(pages)}\n`,
  );
  for (const page of pages) {
    if (page.failing.length === 0) continue;
    console.log(`${page.name}: audits below 90`);
    for (const audit of page.failing) {
      console.log(`  [${audit.category}] ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    }
  }
  const date = new Date();
  const resultsDir = join(REPO_ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `lighthouse-${date.toISOString().slice(0, 19).replace(/:/g, '-')}.json`);
  console.log(`\nInitial JS + CSS of / (gzip level 9):\n${initialDownload.report}`);
  const problems = belowTargets(pages);
  if (initialDownload.totalBytes > initialDownload.budgetBytes) {
    problems.push(`initial JS + CSS of /: ${kb(initialDownload.totalBytes)} > ${kb(initialDownload.budgetBytes)}`);
  }
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: date.toISOString(),
        machine: {
          cpus: cpus().length,
          cpuModel: cpus()[0]?.model,
          memoryGb: Math.round(totalmem() / 2 ** 30),
          node: process.version,
        },
        loadAverage: { start: round2(loadAverageAtStart), end: round2(loadavg()[0]) },
        builds: { server: SERVER_MAIN, web: WEB_DIST },
        settings,
        runsPerPage: runs,
        seed: SEED_SIZES,
        thresholds: THRESHOLDS,
        pages,
        initialDownload: {
          totalBytes: initialDownload.totalBytes,
          budgetBytes: initialDownload.budgetBytes,
          files: initialDownload.files,
        },
        passed: problems.length === 0,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nWritten to ${file}${keep ? `; reports and server log kept in ${dataDir}` : ''}`);
  if (problems.length > 0) {
    console.error(`Below the targets:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      `Every page meets the targets (performance ≥ 90, accessibility ≥ 95, best practices ≥ 95, SEO ≥ 95); ` +
        `initial JS + CSS of / ${kb(initialDownload.totalBytes)} ≤ ${kb(initialDownload.budgetBytes)}.`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
