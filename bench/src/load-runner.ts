import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  connections: number;
  /** Measured seconds. */
  duration: number;
  /** Unmeasured seconds first, on fresh connections of the same shape. */
  warmup: number;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** Dynamic requests (writes); each call gets a fresh copy, so they may be mutated. */
  requests?: autocannon.Request[];
  /** Called once the warm-up is over and the measured load starts (e.g. to start a profiler). */
  onMeasureStart?: () => void;
  /** Called when a measured window ends (with rounds, once per round). */
  onMeasureEnd?: () => void;
}

export interface Measurement {
  /** Replies received in the measured window. */
  requests: number;
  seconds: number;
  rps: number;
  /** Latencies of 2xx replies in milliseconds, from our own float timings. */
  p50: number;
  p97_5: number;
  p99: number;
  mean: number;
  max: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  /** autocannon's own figures, for comparison with its usual output. */
  autocannon: { requestsPerSecondMean: number; latencyP50: number; latencyP99: number };
  /**
   * CPU time the server process spent per reply in the measured window (user + system, from
   * /proc): unlike req/s, barely moved by other work on the machine, so an optimisation can be
   * judged on a busy machine. Only for the real server.
   */
  serverCpuUsPerRequest?: number;
}

/**
 * One autocannon run after an unmeasured warm-up. Latencies come from the `response` event
 * (float milliseconds): autocannon's own histogram has a resolution of 1 ms, too coarse to compare
 * a 2 ms p50 with a 2.5 ms one.
 */
export async function runLoad(spec: LoadSpec): Promise<Measurement> {
  if (spec.warmup > 0) await fire(spec, spec.warmup, null);
  spec.onMeasureStart?.();
  const latencies: number[] = [];
  const result = await fire(spec, spec.duration, latencies);
  spec.onMeasureEnd?.();
  return summarise([result], latencies, spec.duration);
}

export interface AlternatingMeasurement {
  first: Measurement;
  second: Measurement;
  /** first's req/s over second's, round by round. */
  roundRatios: number[];
  /** The median of roundRatios. */
  ratio: number;
}

/**
 * Loads two targets in turn, `rounds` times, each for `duration / rounds` seconds a round (after
 * one warm-up each). On a shared machine the capacity left to a process drifts by tens of percent
 * over a minute; measured one after the other, two targets can land in different phases of that
 * drift. In alternating rounds each round compares neighbours in time, and the median of the
 * rounds' ratios leaves out a round spoilt by a burst on one side.
 */
export async function runAlternating(
  first: LoadSpec,
  second: LoadSpec,
  rounds: number,
): Promise<AlternatingMeasurement> {
  for (const spec of [first, second]) if (spec.warmup > 0) await fire(spec, spec.warmup, null);
  const results: [autocannon.Result[], autocannon.Result[]] = [[], []];
  const latencies: [number[], number[]] = [[], []];
  const roundRatios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const rps: number[] = [];
    for (const [index, spec] of [first, second].entries()) {
      spec.onMeasureStart?.();
      const result = await fire(spec, spec.duration / rounds, latencies[index]);
      spec.onMeasureEnd?.();
      results[index].push(result);
      rps.push(summarise([result], [], spec.duration / rounds).rps);
    }
    const [firstRps = 0, secondRps = 0] = rps;
    if (secondRps > 0) roundRatios.push(firstRps / secondRps);
  }
  return {
    first: summarise(results[0], latencies[0], first.duration),
    second: summarise(results[1], latencies[1], second.duration),
    roundRatios,
    ratio: median(roundRatios),
  };
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** One measurement from one or more autocannon runs of the same target. */
function summarise(runs: autocannon.Result[], latencies: number[], plannedSeconds: number): Measurement {
  const sorted = Float64Array.from(latencies).sort();
  const statusCounts: Record<string, number> = {};
  let seconds = 0;
  for (const result of runs) {
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
      statusCounts[code] = (statusCounts[code] ?? 0) + (stat.count ?? 0);
    }
    seconds += result.duration;
  }
  if (!(seconds > 0)) seconds = plannedSeconds;
  const replies = Object.values(statusCounts).reduce((sum, value) => sum + value, 0);
  const sum = (pick: (result: autocannon.Result) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const last = runs[runs.length - 1];
  return {
    requests: replies,
    seconds,
    rps: replies / seconds,
    p50: percentile(sorted, 50),
    p97_5: percentile(sorted, 97.5),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sorted.reduce((total, value) => total + value, 0) / sorted.length : Number.NaN,
    max: sorted.length ? (sorted[sorted.length - 1] ?? Number.NaN) : Number.NaN,
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    statusCounts,
    // autocannon's own figures for a single run; with several, the last run's.
    autocannon: {
      requestsPerSecondMean: last?.requests.average ?? Number.NaN,
      latencyP50: last?.latency.p50 ?? Number.NaN,
      latencyP99: last?.latency.p99 ?? Number.NaN,
    },
  };
}

function fire(spec: LoadSpec, duration: number, latencies: number[] | null): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration,
        method: spec.method ?? 'GET',
        headers: spec.headers,
        body: spec.body,
        requests: spec.requests,
        timeout: 10,
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
        else resolveRun(result);
      },
    );
    if (latencies) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      });
    }
  });
}

/**
 * GETs of `path` whose bearer token changes with every request, in turn over `tokens` (shared by
 * all connections), so consecutive requests on one connection, and the connections at any
 * moment, are different readers. autocannon calls setupRequest for each request it sends.
 */
export function rotatingTokens(path: string, tokens: readonly string[]): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'GET',
      path,
      setupRequest: (request: autocannon.Request): autocannon.Request => {
        const token = tokens[next % tokens.length];
        next += 1;
        return { ...request, path, headers: { ...request.headers, authorization: `Bearer ${token}` } };
      },
    },
  ];
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}
