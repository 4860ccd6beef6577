import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, track } from './child-registry';

/**
 * The headless flags of every browser this repository starts, the journeys' (through
 * playwright-core) and Lighthouse's: no sandbox in containers, no GPU, nothing fetched from outside.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const START_TIMEOUT_MS = 30_000;

export interface Chromium {
  /** The DevTools port Lighthouse connects to. */
  port: number;
  stop(): Promise<void>;
}

/** Debian's Chromium, never a downloaded browser (CHROME_PATH is the name chrome-launcher reads). */
export function chromiumPath(): string {
  const path = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`No Chromium at ${path}: apt-get install chromium, or set CHROME_PATH`);
  return path;
}

/**
 * Chromium with a DevTools port (what Lighthouse connects to), started here rather than through
 * chrome-launcher so the flags are exactly the ones every browser test of this repository uses.
 */
export async function launchChromium(): Promise<Chromium> {
  const profileDir = await mkdtemp(join(tmpdir(), 'techit-chromium-'));
  const child = track(
    spawn(
      chromiumPath(),
      [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profileDir}`, 'about:blank'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    ),
  );
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(profileDir, { recursive: true, force: true });
  };
  try {
    return { port: await devToolsPort(child), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function devToolsPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`Chromium did not open DevTools within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
      if (match) {
        cleanUp();
        // Keep draining stderr, or Chromium stalls once the pipe is full.
        child.stderr?.resume();
        resolve(Number(match[1]));
      }
    };
    const onExit = (code: number | null): void =>
      fail(new Error(`Chromium exited (${String(code)}) before opening DevTools:\n${output.slice(-2000)}`));
    function cleanUp(): void {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    }
    function fail(error: Error): void {
      cleanUp();
      reject(error);
    }
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
