import { join, resolve } from 'node:path';
import { INITIAL_DOWNLOAD_BUDGET_BYTES, kb, measureInitialDownload } from '@techit/testkit/initial-download';

/**
 * The web budget: the initial JS + CSS of `/` is at most 250 KB gzip (what counts is
 * described in tools/testkit/src/initial-download.ts, which `npm run lighthouse` prints too).
 */
// E2E_WEB_DIST_DIR: a build made elsewhere (vite build --outDir …), as the journeys accept.
const DIST = process.env.E2E_WEB_DIST_DIR
  ? resolve(process.env.E2E_WEB_DIST_DIR)
  : join(__dirname, '..', '..', 'frontend', 'dist');

describe('initial download of / (JS + CSS, gzip)', () => {
  it(`stays within ${kb(INITIAL_DOWNLOAD_BUDGET_BYTES)}`, () => {
    const { files, totalBytes, shellFiles, report } = measureInitialDownload(DIST);
    console.log(`Initial download of / (gzip level 9):\n${report}`);

    // Sanity: the walk found the shell (React, the router, Ant Design) and the home page on top of it.
    expect(shellFiles).toBeGreaterThan(1);
    expect(files.length).toBeGreaterThan(shellFiles);
    expect(files.some(({ file }) => file.endsWith('.css'))).toBe(true);
    if (totalBytes > INITIAL_DOWNLOAD_BUDGET_BYTES) {
      throw new Error(
        `The initial download of / is ${kb(totalBytes)} gzip, over the ${kb(INITIAL_DOWNLOAD_BUDGET_BYTES)} budget:\n${report}`,
      );
    }
  });
});
