import type { Page } from 'playwright-core';
import { expectConsoleError } from './browser';

/** Which requests: a Playwright URL glob or pattern, or a test of the URL (e.g. `apiPath`). */
export type RequestMatcher = string | RegExp | ((url: URL) => boolean);

/**
 * Requests to one API path whatever their query: the web app adds `?view=compact` to the post
 * routes, which a glob ending in `/api/like` would not match.
 */
export function apiPath(path: string): (url: URL) => boolean {
  return (url) => url.pathname === `/api${path}`;
}

/** How a request fails: the server answers 500, or the network drops it. */
export type Failure = 'server-error' | 'network';

/**
 * Makes every request to `url` fail until the returned function is called (it waits until each
 * failed request has been handled). The browser's own console line for that failure is expected.
 */
export async function failRequests(page: Page, url: RequestMatcher, failure: Failure): Promise<() => Promise<void>> {
  expectConsoleError(
    page,
    failure === 'server-error'
      ? /^Failed to load resource: the server responded with a status of 500/
      : /^Failed to load resource: net::ERR_FAILED/,
  );
  await page.route(url, (route) =>
    failure === 'server-error'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'Something went wrong on our side; please try again' }),
        })
      : route.abort('failed'),
  );
  return () => page.unroute(url);
}

/** Requests to `url` held until released: `arrived` settles once the first one is waiting. */
export interface HeldRequests {
  arrived: Promise<void>;
  /** How many are being held right now. */
  waiting: () => number;
  /** Lets every held request (and any later one) go on, and waits until they have been handled. */
  release: () => Promise<void>;
}

/**
 * Holds back the requests to `url` on a promise, never a timer (a request still held when the
 * last test ends keeps the jest worker from exiting, so a story always awaits `release()`).
 */
export async function holdRequests(page: Page, url: RequestMatcher): Promise<HeldRequests> {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let seen = () => {};
  const arrived = new Promise<void>((resolve) => (seen = resolve));
  let held = 0;
  const handlers = new Set<Promise<void>>();
  await page.route(url, (route) => {
    const handled = (async () => {
      held += 1;
      seen();
      await released;
      held -= 1;
      await route.continue();
    })();
    handlers.add(handled);
    return handled;
  });
  return {
    arrived,
    waiting: () => held,
    release: async () => {
      letGo();
      // Unrouted while a handler still runs, the request would be let go twice.
      await Promise.all(handlers);
      await page.unroute(url);
    },
  };
}
