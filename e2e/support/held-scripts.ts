import type { Page } from 'playwright-core';

/**
 * Holds back every script of the app except the boot script, so what the page shows meanwhile
 * comes from the HTML and the boot script alone. The returned function lets them go and waits
 * until every held request has been handled: a request still held (or a timer holding it) when
 * the last test ends keeps the jest worker from exiting.
 */
export async function holdAppScripts(page: Page): Promise<() => Promise<void>> {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => (letGo = resolve));
  await page.route(/\/assets\/(?!boot-)[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return async () => {
    letGo();
    await page.unrouteAll({ behavior: 'wait' });
  };
}
