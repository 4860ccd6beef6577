import type { Page } from 'playwright-core';

/** Requests held back by holdRequests: what was sent, how many were ever under way at once. */
export interface HeldRequests {
  /** The paths of the requests, in the order the page sent them. */
  readonly sent: string[];
  /** The most requests the page had under way at the same time. */
  mostAtOnce(): number;
  /** Lets every held request (and every later one) through to the server. */
  release(): void;
  /** Resolves once `count` requests were answered and none is under way. */
  readonly allAnswered: Promise<void>;
}

/**
 * A slow server for the requests to `paths`: each is held until `release()`, then passed on and
 * its real answer given back. For the stories of quick clicks on a toggle (like, bookmark): the
 * page must change at every click all the same, and send the requests one after another.
 */
export async function holdRequests(page: Page, paths: string[], count: number): Promise<HeldRequests> {
  const sent: string[] = [];
  let underWay = 0;
  let mostAtOnce = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let answeredAll = () => {};
  const allAnswered = new Promise<void>((resolve) => (answeredAll = resolve));
  // Matched by path: the web app asks for the compact reply (?view=compact).
  await page.route(
    (url) => paths.includes(url.pathname),
    async (route) => {
      sent.push(new URL(route.request().url()).pathname);
      underWay += 1;
      mostAtOnce = Math.max(mostAtOnce, underWay);
      await released;
      const response = await route.fetch();
      underWay -= 1;
      await route.fulfill({ response });
      if (sent.length === count && underWay === 0) answeredAll();
    },
  );
  return { sent, mostAtOnce: () => mostAtOnce, release, allAnswered };
}
