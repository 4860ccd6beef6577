import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDataSandbox } from '@techit/testkit/database-sandbox';
import { freePort, launchServer, serverMain, WEB_DIST } from '@techit/testkit/server-launcher';

// E2E_SERVER_MAIN: another server build's main.js (one that others' rebuilds of backend/dist cannot change mid-run).
const MAIN = serverMain('E2E_SERVER_MAIN');
// E2E_WEB_DIST_DIR: a build made elsewhere (vite build --outDir …), so a run needs no frontend/dist.
const WEB = process.env.E2E_WEB_DIST_DIR ? resolve(process.env.E2E_WEB_DIST_DIR) : WEB_DIST;

/**
 * A `PUBLIC_URL` setting with this value becomes the server's own origin (a free port chosen first):
 * mailing password reset links needs PUBLIC_URL (docs/decisions/050-password-reset.md), and the
 * story follows the mailed link to this very server.
 */
export const OWN_ORIGIN = 'own-origin';

export interface AppServer {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The production server (backend/dist serving frontend/dist) on a free loopback port with a
 * database of its own: a fresh SQLite file, or a fresh schema on TEST_DATABASE_URL.
 */
export async function startAppServer(settings: Record<string, string> = {}): Promise<AppServer> {
  if (!existsSync(MAIN) || !existsSync(join(WEB, 'index.html'))) {
    throw new Error('Build first: npm run build (the browser tests run the built app)');
  }
  const sandbox = await createDataSandbox('e2e');
  try {
    const port = settings.PUBLIC_URL === OWN_ORIGIN ? await freePort() : undefined;
    const ownOrigin = port === undefined ? {} : { PUBLIC_URL: `http://127.0.0.1:${port}` };
    const server = await launchServer({
      main: MAIN,
      port,
      env: {
        ...process.env,
        DATA_DIR: sandbox.dataDir,
        WEB_DIST_DIR: WEB,
        JWT_SECRET: 'e2e-secret-that-is-at-least-32-characters',
        LOG_LEVEL: 'warn',
        // The journeys sign in and post far faster than a person; the limits have a suite of their own.
        RATE_LIMITS: 'off',
        ...(sandbox.databaseUrl ? { DATABASE_URL: sandbox.databaseUrl } : {}),
        ...settings,
        ...ownOrigin,
      },
      output: 'capture',
      // Within the 60 s a jest hook may take: Chromium starts beside it, on two shared cores the
      // server's first answer has taken over 20 s.
      startTimeoutMs: 45_000,
    });
    return {
      url: server.url,
      dataDir: sandbox.dataDir,
      async close() {
        await server.stop();
        await sandbox.remove();
      },
    };
  } catch (error) {
    await sandbox.remove();
    throw error;
  }
}
