import { Worker } from 'node:worker_threads';

/**
 * Runs in the worker thread: its own connection to the file, checkpointing every `intervalMs`.
 * PASSIVE copies what it can without waiting for, or blocking, the app's readers and writer; the
 * app's next commit after a complete copy starts the WAL file over.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (the app's backstop checkpoint is running) or a passing I/O error: the next tick retries.
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(workerData.closed, 0, 1);
  Atomics.notify(workerData.closed, 0);
  parentPort.close();
});
`;

/** How long stop() waits for the worker's connection to close (a checkpoint in progress ends first). */
const STOP_TIMEOUT_MS = 5000;

/**
 * Checkpoints a WAL-mode SQLite file from a worker thread, so the app's own connection need not.
 *
 * SQLite's automatic checkpoint runs inside whichever commit takes the WAL past 1,000 pages: under
 * a stream of likes, one commit in 150 copied the WAL into the database and synced it, 6 ms on the
 * event loop, a third of all commit time (docs/performance.md). Here that work runs beside the event
 * loop. The app keeps a much larger automatic checkpoint (see create-database.ts) as a backstop,
 * should this thread fall behind or stop.
 */
export class SqliteCheckpointer {
  private exited = false;

  private constructor(
    private readonly worker: Worker,
    private readonly closed: Int32Array,
  ) {
    worker.once('exit', () => {
      this.exited = true;
    });
  }

  static start(file: string, intervalMs = 200): SqliteCheckpointer {
    const closed = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, intervalMs, driverPath: require.resolve('better-sqlite3'), closed },
      // A checkpointing connection needs almost no heap.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    // Never what keeps the process alive; at exit a checkpoint cut short is safe (the WAL stays).
    worker.unref();
    // Should the thread itself fail (it cannot open the file), the backstop checkpoints instead;
    // an unheard 'error' event would end the process.
    worker.on('error', () => undefined);
    return new SqliteCheckpointer(worker, closed);
  }

  /**
   * Closes the worker's connection and returns once it is closed (blocking, as closing the app's
   * own connection does). Returning earlier would leave a connection to the file open after the
   * caller believes the database closed: a test that then deletes the folder, and a new file that
   * reuses the inode, would share SQLite's per-inode lock and WAL-index state with the dead file.
   */
  stop(): void {
    if (this.exited) return;
    this.worker.postMessage('stop');
    Atomics.wait(this.closed, 0, 0, STOP_TIMEOUT_MS);
  }
}
