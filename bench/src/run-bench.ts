/**
 * `npm run bench`: seeds (or reuses) a community-sized data set, starts the production server,
 * and measures each scenario against it and against a limit server replaying the same bytes.
 * Prints a markdown table per database and writes it as JSON under bench/results/.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Dialect } from '@techit/backend/database/database.types';
import { type BenchOptions, OptionsError, USAGE, parseBenchOptions } from './bench-options';
import { type AppServer, startAppServer } from './app-server';
import { installCleanupHandlers } from '@techit/testkit/child-registry';
import { type CounterCheck, checkCounters } from './counter-check';
import { PROFILE_HOOK, ServerProfiler, summariseProfile } from './cpu-profile';
import { type DataSet, REPO_ROOT, prepareDataSet } from './data-set';
import { startLimitServer } from './limit-server';
import {
  type AlternatingMeasurement,
  type LoadSpec,
  type Measurement,
  rotatingTokens,
  runAlternating,
  runLoad,
} from './load-runner';
import {
  type DialectReport,
  type Machine,
  type ScenarioRow,
  describeMachine,
  evaluateTargets,
  renderMarkdown,
  writeJson,
} from './report';
import { RssSampler } from './rss-sampler';
import {
  AUTH_READERS,
  DURING_WRITES_COMMENTS_PER_SECOND,
  DURING_WRITES_LIKES_PER_SECOND,
  DURING_WRITES_SCENARIO,
  HEAVY_FOLLOWER_SCENARIOS,
  HOT_DEEP_PAGE_PATH,
  MIN_AUTH_READERS,
  NOTIFICATION_SCENARIOS,
  NOTIFICATIONS_HELD,
  READER_SCENARIOS,
  type ReadScenario,
  SCENARIO_NAMES,
  type ScenarioReaders,
  TAG_FOLLOWER_SCENARIOS,
  WRITE_SCENARIOS,
  forYouDuringWrites,
  readScenarios,
  tagDeepPagePath,
} from './scenarios';
import { findReaderNames } from './bench-readers';
import { type CodePost, ensureCodePost } from './code-post';
import { ensureNotifications } from './notifications-data';
import {
  BackgroundWriter,
  type BackgroundWrites,
  type LikeState,
  type Reader,
  type WriteProblems,
  noProblems,
  pickWritePosts,
  signInNames,
  signInReaders,
  writeRequests,
} from './write-load';

/** Enough distinct writers that 50 connections never toggle the same (user, post) at once. */
const WRITERS = 50;
/** In the write mix, one request in five is a comment. */
const COMMENT_EVERY = 5;
const SIGN_IN_CONNECTIONS = 8;
const SIGN_IN_SECONDS = 5;
/** Linux reports process CPU time in ticks of 1/100 s (USER_HZ). */
const CLOCK_TICK_US = 10_000;

interface RunContext {
  options: BenchOptions;
  server: AppServer;
  rss: RssSampler;
  profiler: ServerProfiler | null;
  profiles: DialectReport['cpuProfiles'];
}

async function main(): Promise<void> {
  installCleanupHandlers();
  let options: BenchOptions;
  try {
    const parsed = parseBenchOptions(process.argv.slice(2));
    if (parsed === 'help') {
      console.log(USAGE);
      return;
    }
    options = parsed;
  } catch (error) {
    if (error instanceof OptionsError || (error instanceof Error && 'code' in error)) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
  const unknown = [...(options.only ?? [])].filter((name) => !(SCENARIO_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown scenario(s): ${unknown.join(', ')}. Known: ${SCENARIO_NAMES.join(', ')}`);
    process.exit(2);
  }

  const machine = describeMachine();
  const dialects: Dialect[] = options.db === 'both' ? ['sqlite', 'postgres'] : [options.db];
  const reports: DialectReport[] = [];
  for (const dialect of dialects) {
    const report = await benchDialect(options, dialect, machine);
    const file = writeJson(report);
    console.log(`\n${renderMarkdown(report)}\n\nWritten to ${file.replace(REPO_ROOT + '/', '')}\n`);
    reports.push(report);
  }
  if (reports.length > 1) {
    console.log('Summary:');
    for (const report of reports) {
      const failed = report.targets.filter((line) => line.pass === false).length;
      console.log(`  ${report.dialect}: ${report.targets.length - failed}/${report.targets.length} targets met`);
    }
  }
}

async function benchDialect(options: BenchOptions, dialect: Dialect, machine: Machine): Promise<DialectReport> {
  const startedAt = Date.now();
  const date = new Date().toISOString();
  console.log(`\n=== ${dialect} ===`);
  const dataSet = await prepareDataSet({
    dialect,
    sizes: options.sizes,
    seed: options.seed,
    reseed: options.reseed,
    postgresUrl: options.postgresUrl,
  });
  const profileDir = options.cpuProf ? join(dataSet.dir, 'profiles', date.replace(/[:.]/g, '-')) : null;
  const server = await startAppServer({
    dataDir: dataSet.dir,
    databaseUrl: dataSet.databaseUrl,
    nodeArgs: profileDir ? ['--require', PROFILE_HOOK] : [],
    extraEnv: profileDir ? { BENCH_CPU_PROF_DIR: profileDir } : {},
  });
  console.log(`Server pid ${server.pid} at ${server.baseUrl} (log: ${server.logFile})`);
  const rss = new RssSampler(server.pid);
  rss.start();
  const context: RunContext = {
    options,
    server,
    rss,
    profiler: profileDir ? new ServerProfiler(server.pid, profileDir) : null,
    profiles: [],
  };

  const rows: ScenarioRow[] = [];
  let counters: CounterCheck | null = null;
  let writeProblems: WriteProblems | null = null;
  try {
    const wanted = (name: string): boolean => !options.only || options.only.has(name);
    const writesWanted = WRITE_SCENARIOS.some(wanted);
    const duringWritesWanted = wanted(DURING_WRITES_SCENARIO);
    const notificationsWanted = NOTIFICATION_SCENARIOS.some(wanted);
    const { landmarks } = dataSet.summary;
    const started = Date.now();
    // Writers (50, by the authors of the newest posts) double as the signed-in readers.
    const readerCount = Math.max(
      writesWanted || duringWritesWanted ? WRITERS : 0,
      READER_SCENARIOS.some(wanted) ? AUTH_READERS : 0,
      notificationsWanted ? 1 : 0,
    );
    const readers = readerCount > 0 ? await signInReaders(server.baseUrl, dataSet.summary, readerCount) : [];
    const byName = new Map(readers.map((reader) => [reader.userName, reader]));
    const signInMore = async (names: string[]): Promise<Reader[]> => {
      const missing = names.filter((name) => !byName.has(name));
      for (const reader of await signInNames(server.baseUrl, dataSet.summary.password, missing)) {
        byName.set(reader.userName, reader);
      }
      return names.map((name) => byName.get(name)).filter((reader): reader is Reader => reader !== undefined);
    };
    const wantHeavy = HEAVY_FOLLOWER_SCENARIOS.some(wanted);
    const wantTagFollowers = TAG_FOLLOWER_SCENARIOS.some(wanted);
    const names =
      wantHeavy || wantTagFollowers
        ? await findReaderNames(dataSet, landmarks.heavyFollowerFollows, AUTH_READERS)
        : { heavyFollowers: [], tagFollowers: [] };
    const heavyFollowers = wantHeavy ? await signInMore(names.heavyFollowers) : [];
    const tagFollowers = wantTagFollowers
      ? await signInMore(
          landmarks.signInUserFollowedTags.length > 0
            ? [
                landmarks.signInUserName,
                ...names.tagFollowers.filter((name) => name !== landmarks.signInUserName),
              ].slice(0, AUTH_READERS)
            : names.tagFollowers,
        )
      : [];
    if (byName.size > 0) {
      console.log(
        `Signed in ${byName.size} seeded users in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
          `(${heavyFollowers.length} following ${landmarks.heavyFollowerFollows}, ${tagFollowers.length} following tags)`,
      );
    }
    for (const [kind, list, scenarios] of [
      ['signed-in readers', readers, READER_SCENARIOS],
      ['users following 1,000', heavyFollowers, HEAVY_FOLLOWER_SCENARIOS],
      ['tag followers', tagFollowers, TAG_FOLLOWER_SCENARIOS],
    ] as const) {
      if (scenarios.some(wanted) && list.length < MIN_AUTH_READERS) {
        console.warn(
          `  only ${list.length} ${kind} (wanted ≥ ${MIN_AUTH_READERS}): ${scenarios.join(', ')} spread over fewer`,
        );
      }
    }
    const reader = readers.find((candidate) => candidate.userName === landmarks.signInUserName);
    const auth: ScenarioReaders = {
      readers: readers.slice(0, AUTH_READERS).map((one) => one.token),
      heavyFollowers: heavyFollowers.map((one) => one.token),
      tagFollowers: tagFollowers.map((one) => one.token),
      notificationsReader: (reader ?? readers[0])?.token ?? null,
    };

    if (notificationsWanted && reader) {
      const started = Date.now();
      const written = await ensureNotifications(dataSet, reader.userId, NOTIFICATIONS_HELD);
      console.log(
        `${reader.userName} holds ${NOTIFICATIONS_HELD} notifications (${written} written in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    }

    let codePost: CodePost | string = 'not wanted';
    if (wanted('post-auth')) {
      codePost = await ensureCodePost(server.baseUrl, dataSet, [landmarks.viralPostId, landmarks.manyCommentsPostId]);
      if (typeof codePost !== 'string') {
        console.log(
          `post-auth reads post ${codePost.id}${codePost.written ? ' (its Markdown article written now)' : ''}`,
        );
      }
    }

    const deepCursors = {
      hot: await deepCursor(server.baseUrl, HOT_DEEP_PAGE_PATH),
      tag: landmarks.popularTag ? await deepCursor(server.baseUrl, tagDeepPagePath(dataSet.summary)) : null,
    };
    for (const scenario of readScenarios(dataSet.summary, options.sizes, auth, deepCursors, codePost)) {
      if (wanted(scenario.name)) rows.push(await runRead(context, scenario));
    }

    if (writesWanted || duringWritesWanted) {
      const postIds = await pickWritePosts(server.baseUrl, dataSet.summary, options.sizes.posts, readers);
      writeProblems = noProblems();
      // Shared by every write phase: a pair one phase liked, the next one unlikes.
      const liked: LikeState = new Map();
      if (duringWritesWanted) {
        const writer = new BackgroundWriter(
          server.baseUrl,
          readers,
          postIds,
          DURING_WRITES_LIKES_PER_SECOND,
          DURING_WRITES_COMMENTS_PER_SECOND,
          writeProblems,
          liked,
        );
        rows.push(await runRead(context, forYouDuringWrites(), writer));
      }
      for (const [name, commentEvery] of [
        ['like-toggle', 0],
        ['write-mix', COMMENT_EVERY],
      ] as const) {
        if (wanted(name)) {
          rows.push(await runWrite(context, name, readers, postIds, commentEvery, writeProblems, liked));
        }
      }
      counters = await checkCounters(server.baseUrl, dataSet, postIds);
      console.log(`counters exact: ${counters.exact ? 'yes' : 'no'} (${counters.mismatches} mismatches)`);
    }

    if (wanted('signin')) rows.push(await runSignIn(context, dataSet));
  } finally {
    rss.stop();
    await server.stop();
  }

  const sqliteBusyInLog = server.countInLog('SQLITE_BUSY');
  const partial: Omit<DialectReport, 'targets'> = {
    dialect,
    label: options.label,
    date,
    machine,
    sizes: options.sizes,
    seed: options.seed,
    dataSet: {
      dir: dataSet.dir.replace(REPO_ROOT + '/', ''),
      reused: dataSet.reused,
      seedMs: dataSet.seedMs,
      seedSummaryDurationMs: dataSet.summary.durationMs,
    },
    settings: {
      connections: options.connections,
      durationSeconds: options.duration,
      warmupSeconds: options.warmup,
      rounds: options.rounds,
      readCache: process.env.READ_CACHE_TTL_MS?.trim() === '0' ? 'off' : 'on',
      only: options.only ? [...options.only] : undefined,
    },
    serverMaxRssMb: Math.round(rss.maxMb * 10) / 10,
    rssSamples: rss.sampleCount,
    rows,
    counters,
    writeProblems,
    sqliteBusyInLog,
    cpuProfiles: context.profiles,
    wallSeconds: Math.round((Date.now() - startedAt) / 1000),
  };
  return { ...partial, targets: evaluateTargets(partial, SCENARIO_NAMES) };
}

function emptyRow(name: string, method: string, path: string): ScenarioRow {
  return {
    name,
    method,
    path,
    outcome: 'ok',
    note: '',
    replyBytes: null,
    real: null,
    limit: null,
    ratio: null,
    maxRssMb: null,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

interface FetchedReply {
  body: Buffer;
  contentType: string;
  parsed: unknown;
  problem: string | null;
}

/** One reply as the load will get it, checked by the scenario. */
async function fetchReply(url: string, scenario: ReadScenario, token?: string): Promise<FetchedReply> {
  // The load client asks for no compression, so neither does this: the limit server must send
  // the very bytes the real server sends under load.
  const headers: Record<string, string> = { ...scenario.headers, 'accept-encoding': 'identity' };
  if (token) headers.authorization = `Bearer ${token}`;
  const reply = await fetch(url, { headers });
  const body = Buffer.from(await reply.arrayBuffer());
  const contentType = reply.headers.get('content-type') ?? 'application/json';
  let problem: string | null = null;
  let parsed: unknown = null;
  if (reply.status !== 200) problem = `status ${reply.status}: ${body.toString('utf8').slice(0, 160)}`;
  else {
    try {
      parsed = JSON.parse(body.toString('utf8'));
      problem = scenario.check(parsed);
    } catch {
      problem = `not JSON (${contentType})`;
    }
  }
  return { body, contentType, parsed, problem };
}

/**
 * Measures a read against the real and the limit server. With `writer` (for-you-during-writes),
 * the writer sends its writes from before the warm-ups until the last round ends.
 */
async function runRead(context: RunContext, scenario: ReadScenario, writer?: BackgroundWriter): Promise<ScenarioRow> {
  const { server, options } = context;
  const row = emptyRow(scenario.name, 'GET', scenario.path);
  if (scenario.skip) {
    console.log(`- ${scenario.name}: skipped (${scenario.skip})`);
    return { ...row, outcome: 'skipped', note: scenario.skip };
  }
  const tokens = scenario.tokens ?? [];
  const {
    body,
    contentType,
    parsed,
    problem: firstProblem,
  } = await fetchReply(server.baseUrl + scenario.path, scenario, tokens[0]);
  let problem = firstProblem;
  // Every reader's reply must be right too, not only the one the limit server replays.
  for (const [index, token] of tokens.entries()) {
    if (problem || index === 0) continue;
    const other = await fetchReply(server.baseUrl + scenario.path, scenario, token);
    if (other.problem) problem = `reader ${index + 1} of ${tokens.length}: ${other.problem}`;
  }
  if (problem) {
    console.log(`- ${scenario.name}: FAILED before load (${problem})`);
    return { ...row, outcome: 'failed', note: problem };
  }

  const spec: LoadSpec = {
    url: server.baseUrl + scenario.path,
    connections: scenario.connections ?? options.connections,
    duration: options.duration,
    warmup: options.warmup,
    headers: scenario.headers,
    requests: tokens.length > 0 ? rotatingTokens(scenario.path, tokens) : undefined,
  };
  const limitServer = await startLimitServer(body, contentType);
  let compared: AlternatingMeasurement;
  let writes: BackgroundWrites | null = null;
  const probe = serverProbe(context);
  writer?.start();
  try {
    compared = await runAlternating(
      { ...spec, onMeasureStart: probe.start, onMeasureEnd: probe.end },
      { ...spec, url: limitServer.baseUrl + scenario.path },
      options.rounds,
    );
  } finally {
    if (writer) writes = await writer.stop();
    await limitServer.stop();
  }
  const real = await probe.finish(scenario.name, compared.first);
  const limit = compared.second;
  const maxRssMb = context.rss.takeWindowMaxMb();
  const ratio = Number.isFinite(compared.ratio) ? compared.ratio : null;
  const rounds = compared.roundRatios.map((value) => `${(value * 100).toFixed(1)}%`).join(' ');
  console.log(
    `- ${scenario.name}: ${fmt(real)} | limit ${Math.round(limit.rps)} req/s | ratio ${
      ratio === null ? 'n/a' : `${(ratio * 100).toFixed(1)}%`
    } (rounds ${rounds}) | ${body.length} B`,
  );
  const writesNote = writes ? `; ${describeWrites(writes)}` : '';
  if (writes) console.log(`  ${describeWrites(writes)}`);
  return {
    ...row,
    note:
      scenario.describe(parsed) +
      (tokens.length > 0 ? `; ${tokens.length} readers, one token per request in turn` : '') +
      (scenario.connections ? `; ${scenario.connections} connection${scenario.connections === 1 ? '' : 's'}` : '') +
      writesNote,
    readers: tokens.length > 1 ? tokens.length : undefined,
    backgroundWrites: writes ?? undefined,
    replyBytes: body.length,
    real,
    limit,
    ratio,
    roundRatios: compared.roundRatios,
    maxRssMb,
  };
}

function describeWrites(writes: BackgroundWrites): string {
  return (
    `writes beside it: ${writes.likesPerSecond.toFixed(1)} likes/s and ${writes.commentsPerSecond.toFixed(1)} comments/s ` +
    `achieved (asked ${DURING_WRITES_LIKES_PER_SECOND} and ${DURING_WRITES_COMMENTS_PER_SECOND}) over ${writes.seconds.toFixed(1)} s, ` +
    `${writes.failed} failed, ${writes.dropped} not sent`
  );
}

async function runWrite(
  context: RunContext,
  name: string,
  readers: Reader[],
  postIds: string[],
  commentEvery: number,
  totals: WriteProblems,
  liked: LikeState,
): Promise<ScenarioRow> {
  const { server, options } = context;
  const problems = noProblems();
  const path = commentEvery > 0 ? 'PUT /api/like|unlike|comment' : 'PUT /api/like|unlike';
  const row = emptyRow(name, 'PUT', path);
  const real = await measureServer(context, name, {
    url: server.baseUrl,
    connections: options.connections,
    duration: options.duration,
    warmup: options.warmup,
    requests: writeRequests(readers, postIds, commentEvery, problems, liked),
  });
  totals.replies += problems.replies;
  totals.replyBytes += problems.replyBytes;
  totals.serverErrors += problems.serverErrors;
  totals.sqliteBusy += problems.sqliteBusy;
  totals.samples.push(...problems.samples.slice(0, 5 - totals.samples.length));
  const replyBytes = problems.replies > 0 ? Math.round(problems.replyBytes / problems.replies) : null;
  console.log(`- ${name}: ${fmt(real)} | ${problems.serverErrors} 5xx, ${problems.sqliteBusy} SQLITE_BUSY`);
  return {
    ...row,
    note: `${readers.length} users × ${postIds.length} posts${commentEvery > 0 ? `, 1 in ${commentEvery} a comment` : ''}; reply bytes are the mean`,
    replyBytes,
    real,
    maxRssMb: context.rss.takeWindowMaxMb(),
  };
}

async function runSignIn(context: RunContext, dataSet: DataSet): Promise<ScenarioRow> {
  const { server, options } = context;
  const body = JSON.stringify({
    userName: dataSet.summary.landmarks.signInUserName,
    password: dataSet.summary.password,
  });
  const headers = { 'content-type': 'application/json' };
  const row = emptyRow('signin', 'POST', '/api/signin');
  const check = await fetch(`${server.baseUrl}/api/signin`, { method: 'POST', headers, body });
  const replyBytes = (await check.arrayBuffer()).byteLength;
  if (check.status !== 200) {
    console.log(`- signin: FAILED before load (status ${check.status})`);
    return { ...row, outcome: 'failed', note: `status ${check.status}` };
  }
  const connections = Math.min(SIGN_IN_CONNECTIONS, options.connections);
  const real = await measureServer(context, 'signin', {
    url: `${server.baseUrl}/api/signin`,
    method: 'POST',
    headers,
    body,
    connections,
    duration: Math.min(SIGN_IN_SECONDS, options.duration),
    warmup: Math.min(1, options.warmup),
  });
  console.log(`- signin: ${fmt(real)} (${connections} connections)`);
  return {
    ...row,
    note: `argon2 on purpose; ${connections} connections`,
    replyBytes,
    real,
    maxRssMb: context.rss.takeWindowMaxMb(),
  };
}

/** Loads the real server; with --cpu-prof, profiles the measured window (not the warm-up). */
async function measureServer(context: RunContext, name: string, spec: LoadSpec): Promise<Measurement> {
  const probe = serverProbe(context);
  const measurement = await runLoad({ ...spec, onMeasureStart: probe.start, onMeasureEnd: probe.end });
  return probe.finish(name, measurement);
}

/**
 * Watches the real server through measured windows (one, or one per round): its CPU time, its
 * profile with --cpu-prof, and whether it is still running.
 */
function serverProbe(context: RunContext): {
  start: () => void;
  end: () => void;
  finish: (name: string, measurement: Measurement) => Promise<Measurement>;
} {
  context.rss.takeWindowMaxMb();
  const { profiler } = context;
  const { child } = context.server;
  let cpuUs: number | null = 0;
  let cpuAtStart: number | null = null;
  let profiling = false;
  return {
    start: () => {
      cpuAtStart = processCpuUs(child.pid);
      if (profiler && !profiling) {
        profiler.start();
        profiling = true;
      }
    },
    end: () => {
      const cpuAtEnd = processCpuUs(child.pid);
      cpuUs = cpuUs !== null && cpuAtStart !== null && cpuAtEnd !== null ? cpuUs + cpuAtEnd - cpuAtStart : null;
    },
    finish: async (name, measurement) => {
      if (cpuUs !== null && measurement.requests > 0) {
        measurement.serverCpuUsPerRequest = Math.round(cpuUs / measurement.requests);
      }
      if (child.exitCode !== null || child.signalCode !== null) {
        const tail = context.server.logTail();
        throw new Error(`The server exited (${child.signalCode ?? `code ${child.exitCode}`}) during ${name}:\n${tail}`);
      }
      if (profiler && profiling) {
        const file = await profiler.stop();
        context.profiles.push({
          scenario: name,
          file: file.replace(REPO_ROOT + '/', ''),
          summary: summariseProfile(file),
        });
      }
      return measurement;
    },
  };
}

function fmt(measurement: Measurement): string {
  const { errors } = measurement;
  const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : 'n/a (no 2xx reply)');
  const problems = errors || measurement.non2xx ? `, ${errors} errors, ${measurement.non2xx} non-2xx` : '';
  const cpu =
    measurement.serverCpuUsPerRequest === undefined ? '' : `, server CPU ${measurement.serverCpuUsPerRequest} µs/req`;
  return `${Math.round(measurement.rps)} req/s, p50 ${ms(measurement.p50)}, p99 ${ms(measurement.p99)}${cpu}${problems}`;
}

/** user + system CPU time of a process in µs, from /proc/<pid>/stat (clock ticks of 10 ms). */
function processCpuUs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'); utime and stime
    // are the 14th and 15th fields of the line.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_US;
  } catch {
    return null;
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);

/**
 * A feed's cursor after its first DEEP_PAGE × FEED_PAGE_SIZE posts (the hot feed's, the popular
 * tag's): the nextCursor of that page read by number (the seed's landmarks hold only the for-you
 * cursor). Null when the data set is too small for that page to have a next one.
 */
async function deepCursor(baseUrl: string, deepPagePath: string): Promise<string | null> {
  const reply = await fetch(`${baseUrl}${deepPagePath}`);
  if (!reply.ok) return null;
  const body = (await reply.json()) as { nextCursor?: unknown };
  return typeof body.nextCursor === 'string' ? body.nextCursor : null;
}
