import { appendFileSync } from 'node:fs';
import { launchServer, logTail, type ServerProcess } from '@techit/testkit/server-launcher';

const START_TIMEOUT_MS = 90_000;

/**
 * One app process (`node backend/dist/main.js`) on a fixed loopback port: the balancer's config
 * names the port, so an instance that is killed comes back on the same one.
 */
export class AppInstance {
  private server: ServerProcess | null = null;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly main: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly cwd: string,
    readonly logFile: string,
  ) {}

  /** How nginx names it in $upstream_addr (X-Instance). */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get baseUrl(): string {
    return `http://${this.address}`;
  }

  get running(): boolean {
    const child = this.server?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Starts the process and resolves once /api/health answers 200. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    // One log across restarts: each start appends to it.
    appendFileSync(this.logFile, `--- ${new Date().toISOString()} starting ${this.name} on ${this.address}\n`);
    this.server = await launchServer({
      main: this.main,
      port: this.port,
      cwd: this.cwd,
      env: this.env,
      output: { file: this.logFile, append: true },
      startTimeoutMs: START_TIMEOUT_MS,
      name: this.name,
    });
  }

  /** SIGKILL: no graceful shutdown, no draining, as when a machine or a container dies. */
  async kill(): Promise<void> {
    await this.server?.kill();
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /** The last lines of its log, for an error message. */
  tail(lines = 25): string {
    return logTail(this.logFile, lines);
  }
}
