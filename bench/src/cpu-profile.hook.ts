/**
 * Preloaded into the server (`node --require …/cpu-profile.hook.js`) when the bench runs with
 * --cpu-prof. Each SIGUSR2 toggles V8's sampling profiler, so the bench profiles exactly the
 * measured window of a scenario; node's own --cpu-prof would cover start-up too and only writes
 * on a clean exit, which Nest's signal handling does not give.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  let running = false;
  let count = 0;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      count += 1;
      const file = join(dir, `profile-${count}.cpuprofile`);
      // Written under another name first: the bench waits for this exact file to appear whole.
      writeFileSync(`${file}.tmp`, error ? JSON.stringify({ error: error.message }) : JSON.stringify(result.profile));
      renameSync(`${file}.tmp`, file);
    });
  });
}
