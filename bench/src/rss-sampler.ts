import { readFileSync } from 'node:fs';

const INTERVAL_MS = 200;

/**
 * Reads the server's resident set size from /proc every 200 ms for the whole run: the budget is
 * "through the whole bench", so a spike between two scenarios counts as much as one inside.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private overallMaxKb = 0;
  private windowMaxKb = 0;
  private samples = 0;

  constructor(private readonly pid: number) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), INTERVAL_MS);
    // Sampling must never keep the process alive on its own.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
  }

  /** Starts a new window (one scenario) and returns the previous window's maximum in MB. */
  takeWindowMaxMb(): number {
    this.sample();
    const max = this.windowMaxKb;
    this.windowMaxKb = 0;
    return max / 1024;
  }

  get maxMb(): number {
    return this.overallMaxKb / 1024;
  }

  get sampleCount(): number {
    return this.samples;
  }

  private sample(): void {
    const kb = readRssKb(this.pid);
    if (kb === null) return;
    this.samples += 1;
    this.overallMaxKb = Math.max(this.overallMaxKb, kb);
    this.windowMaxKb = Math.max(this.windowMaxKb, kb);
  }
}

function readRssKb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    // The process has gone (or this is not Linux): no sample.
    return null;
  }
}
