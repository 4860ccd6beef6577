import type { DestinationStream } from 'pino';

/** What the batch is handed to: pino's asynchronous destination (sonic-boom). */
export interface LogTarget {
  write(chunk: string): boolean;
  flushSync(): void;
}

/**
 * Gathers log lines in memory and hands them to `target` a batch at a time: when a batch reaches
 * `batchLength` characters, every `flushEveryMs`, and synchronously when the process exits.
 *
 * sonic-boom, given one line at a time, appends it to its pending string and measures that whole
 * string's byte length again on every write: with a few KB pending under load, that scan (and the
 * copy that flattens the string for it) was half of a request line's cost. A line here costs an
 * array push; sonic-boom sees one write per batch.
 */
export class BatchedLogStream implements DestinationStream {
  private lines: string[] = [];
  private length = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly flushAtExit = (): void => {
    try {
      this.flushSync();
    } catch {
      // The target is gone (closed stdout): there is nowhere left to write to.
    }
  };

  constructor(
    private readonly target: LogTarget,
    private readonly batchLength = 8192,
    flushEveryMs = 500,
  ) {
    this.timer = setInterval(() => this.handOver(), flushEveryMs);
    this.timer.unref();
    // Registered here rather than left to pino, which flushes only the target: the lines still
    // gathered here would be lost. A SIGKILL can lose the last `flushEveryMs` of lines.
    process.on('exit', this.flushAtExit);
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.length += line.length;
    if (this.length >= this.batchLength) this.handOver();
    return true;
  }

  /** Writes every gathered line through to the file descriptor before returning. */
  flushSync(): void {
    this.handOver();
    this.target.flushSync();
  }

  /** Stops the timer and the exit hook (for tests and for a logger that is replaced). */
  close(): void {
    this.flushSync();
    clearInterval(this.timer);
    process.off('exit', this.flushAtExit);
  }

  private handOver(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    this.length = 0;
    this.target.write(batch);
  }
}
