import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT } from './data-set';

export const PROFILE_HOOK = join(__dirname, 'cpu-profile.hook.js');

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Starts and stops the server's profiler (see cpu-profile.hook.ts) and collects the files. */
export class ServerProfiler {
  private count = 0;

  constructor(
    private readonly pid: number,
    readonly dir: string,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  start(): void {
    process.kill(this.pid, 'SIGUSR2');
  }

  /** Stops the profiler and returns the profile's path once the server has written it. */
  async stop(): Promise<string> {
    process.kill(this.pid, 'SIGUSR2');
    this.count += 1;
    const file = join(this.dir, `profile-${this.count}.cpuprofile`);
    for (let waited = 0; waited < 30_000; waited += 100) {
      if (existsSync(file)) return file;
      await sleep(100);
    }
    throw new Error(`The server wrote no CPU profile (${file})`);
  }
}

/**
 * A flame summary in text: where the server's CPU time went, by package (self time) and by
 * function. "(idle)" is time the server waited for work, i.e. the load generator or the
 * database was the bottleneck, not the server's JavaScript.
 */
export function summariseProfile(file: string, top = 12): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const selfMicros = new Map<number, number>();
  if (profile.samples && profile.timeDeltas) {
    // Sample i lasted until sample i+1: attribute each delta to the sample it follows.
    for (let i = 0; i < profile.samples.length; i += 1) {
      const id = profile.samples[i];
      const delta = profile.timeDeltas[i + 1] ?? 0;
      selfMicros.set(id, (selfMicros.get(id) ?? 0) + Math.max(0, delta));
    }
  }
  const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0) || 1;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  // Native code (a better-sqlite3 statement, argon2, a socket write) has no URL of its own: it is
  // charged to the nearest JavaScript caller's package, which is what one can act on.
  const callerOf = (node: ProfileNode): ProfileNode | null => {
    for (let parent = parents.get(node.id); parent; parent = parents.get(parent.id)) {
      if (parent.callFrame.url) return parent;
    }
    return null;
  };
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id);
    if (!node || micros === 0) continue;
    const { url, functionName, lineNumber } = node.callFrame;
    const caller = url || functionName.startsWith('(') ? null : callerOf(node);
    const where = caller ? `${packageOf(caller.callFrame.url, '')} (native)` : packageOf(url, functionName);
    byPackage.set(where, (byPackage.get(where) ?? 0) + micros);
    const place = url
      ? `${shortUrl(url)}:${lineNumber + 1}`
      : caller
        ? `native, from ${shortUrl(caller.callFrame.url)}:${caller.callFrame.lineNumber + 1}`
        : '';
    const name = `${functionName || '(anonymous)'} ${place}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const share = (micros: number): string => `${((micros / total) * 100).toFixed(1).padStart(5)}%`;
  const lines = [`${(total / 1e6).toFixed(1)} s sampled. Self time by package:`];
  for (const [name, micros] of sortDesc(byPackage).slice(0, top)) lines.push(`${share(micros)}  ${name}`);
  lines.push('Hottest functions (self time):');
  for (const [name, micros] of sortDesc(byFunction).slice(0, top)) lines.push(`${share(micros)}  ${name}`);
  return lines;
}

function sortDesc(map: Map<string, number>): [string, number][] {
  return [...map.entries()].sort((a, b) => b[1] - a[1]);
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native / V8)';
  if (url.startsWith('node:')) return 'node core';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  if (url.includes('/backend/dist/')) return 'backend (app code)';
  if (url.includes('/contract/dist/')) return 'contract';
  return shortUrl(url);
}

function shortUrl(url: string): string {
  if (!url) return '';
  const path = url.startsWith('file://') ? url.slice('file://'.length) : url;
  return path.startsWith('/') ? relative(REPO_ROOT, path) : path;
}
