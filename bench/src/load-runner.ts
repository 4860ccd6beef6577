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
  const sorted = Float64Array.from(latencies).sort();
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statusCounts[code] = stat.count ?? 0;
  }
  const replies = Object.values(statusCounts).reduce((sum, value) => sum + value, 0);
  const seconds = result.duration > 0 ? result.duration : spec.duration;
  return {
    requests: replies,
    seconds,
    rps: replies / seconds,
    p50: percentile(sorted, 50),
    p97_5: percentile(sorted, 97.5),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : Number.NaN,
    max: sorted.length ? (sorted[sorted.length - 1] ?? Number.NaN) : Number.NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
    autocannon: {
      requestsPerSecondMean: result.requests.average,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
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

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}
