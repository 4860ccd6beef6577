import type { Page } from 'playwright-core';

/** Scripts held back by `holdScripts`. */
export interface HeldScripts {
  /** Settles once the page has asked for a held script (it is then waiting for it). */
  requested: Promise<void>;
  /** Lets every held script go and waits until each held request has been handled. */
  release: () => Promise<void>;
}

/**
 * Holds back the scripts whose address matches `pattern` until released, on a promise, never a
 * timer: a request still held (or a timer holding it) when the last test ends keeps the jest
 * worker from exiting, so a story always awaits `release()` before it ends.
 */
export async function holdScripts(page: Page, pattern: RegExp): Promise<HeldScripts> {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let seen = () => {};
  const requested = new Promise<void>((resolve) => (seen = resolve));
  await page.route(pattern, async (route) => {
    seen();
    await released;
    await route.continue();
  });
  return {
    requested,
    release: async () => {
      letGo();
      await page.unrouteAll({ behavior: 'wait' });
    },
  };
}

/**
 * Holds back every script of the app except the boot script, so what the page shows meanwhile
 * comes from the HTML and the boot script alone. The returned function lets them go and waits
 * until every held request has been handled.
 */
export async function holdAppScripts(page: Page): Promise<() => Promise<void>> {
  return (await holdScripts(page, /\/assets\/(?!boot-)[^/]+\.js$/)).release;
}
