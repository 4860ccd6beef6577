import type { ChildProcess } from 'node:child_process';

/**
 * Every child a run starts (servers, seeds, limit servers, Redis, nginx, Chromium), so that an
 * error, a Ctrl-C or a plain exit never leaves a server holding a port or a database behind.
 */
const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Synchronous so it can run from process 'exit'. */
export function killAll(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

/** SIGTERM, then SIGKILL when the child has not gone within the grace period. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

let installed = false;

/**
 * For a command-line run (the bench, Lighthouse, the cluster test): Ctrl-C and SIGTERM stop the
 * children first; a second Ctrl-C does not wait. Jest owns its workers' signals, so tests do not
 * call this.
 */
export function installCleanupHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => killAll('SIGKILL'));
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) {
      killAll('SIGKILL');
      process.exit(130);
    }
    interrupted = true;
    console.error(`\n${signal}: stopping the servers…`);
    const pending = [...children].map((child) => stopChild(child, 3000));
    void Promise.allSettled(pending).then(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
