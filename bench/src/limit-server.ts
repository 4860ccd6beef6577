import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, track } from '@techit/testkit/child-registry';

export interface LimitServer {
  baseUrl: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

/** Reply files still on disk; an interrupted run removes them on its way out. */
const replyDirs = new Set<string>();
process.on('exit', () => {
  for (const dir of replyDirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts a limit server process answering `body` with `contentType` to every request. */
export async function startLimitServer(body: Buffer, contentType: string): Promise<LimitServer> {
  const dir = mkdtempSync(join(tmpdir(), 'techit-limit-'));
  replyDirs.add(dir);
  const bodyFile = join(dir, 'reply.bin');
  writeFileSync(bodyFile, body);
  const child = track(
    fork(join(__dirname, 'limit-server.main.js'), [bodyFile, contentType], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const cleanUp = async (): Promise<void> => {
    await stopChild(child, 3000);
    rmSync(dir, { recursive: true, force: true });
    replyDirs.delete(dir);
  };
  try {
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error('The limit server did not start')), START_TIMEOUT_MS);
      child.once('message', (message: unknown) => {
        clearTimeout(timer);
        const port = typeof message === 'object' && message !== null && 'port' in message ? message.port : 0;
        if (typeof port === 'number' && port > 0) resolvePort(port);
        else reject(new Error('The limit server reported no port'));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`The limit server stopped while starting (exit code ${code})`));
      });
    });
    return { baseUrl: `http://127.0.0.1:${port}`, stop: cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
