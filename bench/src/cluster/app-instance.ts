import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, type WriteStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild, track } from '../child-registry';

const START_TIMEOUT_MS = 90_000;

/**
 * One app process (`node backend/dist/main.js`) on a fixed loopback port: the balancer's config
 * names the port, so an instance that is killed comes back on the same one.
 */
export class AppInstance {
  private child: ChildProcess | null = null;
  private readonly log: WriteStream;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly main: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly cwd: string,
    readonly logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  /** How nginx names it in $upstream_addr (X-Instance). */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get baseUrl(): string {
    return `http://${this.address}`;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and resolves once /api/health answers 200. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.log.write(`--- ${new Date().toISOString()} starting ${this.name} on ${this.address}\n`);
    const child = track(
      spawn(process.execPath, [this.main], {
        cwd: this.cwd,
        env: { ...this.env, PORT: String(this.port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.child = child;
    const exited = { reason: null as string | null };
    child.once('exit', (code, signal) => (exited.reason = signal ?? `exit code ${String(code)}`));
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (exited.reason !== null) {
        throw new Error(`${this.name} stopped while starting (${exited.reason}); its log:\n${this.tail()}`);
      }
      try {
        const reply = await fetch(`${this.baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (reply.ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        throw new Error(`${this.name} did not answer /api/health within ${START_TIMEOUT_MS / 1000} s:\n${this.tail()}`);
      }
      await sleep(100);
    }
  }

  /** SIGKILL: no graceful shutdown, no draining, as when a machine or a container dies. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (this.child) await stopChild(this.child, 10_000);
  }

  async closeLog(): Promise<void> {
    await new Promise<void>((resolveEnd) => this.log.end(resolveEnd));
  }

  /** The last lines of its log, for an error message. */
  tail(lines = 25): string {
    if (!existsSync(this.logFile)) return '(no log)';
    return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  }
}
