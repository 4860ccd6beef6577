import type { Page } from 'playwright-core';
import { useStory } from '../support/browser';

/** The API requests a page makes from here on, as path + query. */
function recordApiRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push(url.pathname + url.search);
  });
  return requests;
}

/** How many times each API path (without its query) was asked for. */
function countByPath(requests: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of requests) {
    const path = request.split('?')[0];
    counts[path] = (counts[path] ?? 0) + 1;
  }
  return counts;
}

/** The boot script's replies that no fetcher has taken over, or null when it fetched none. */
function untakenBootReplies(page: Page): Promise<string[] | null> {
  return page.evaluate(() => {
    const replies = (window as { __techitBootReplies?: Record<string, unknown> }).__techitBootReplies;
    return replies ? Object.keys(replies) : null;
  });
}

/*
 * A visitor's first requests start from the first HTML (the boot script, built from
 * app/first-requests.ts), from the route's loader and from the screen's own queries. They must be
 * one request each: the boot script's URL is the one the app's fetcher asks for, so the fetcher
 * takes that reply over instead of asking again. If the two ever differ, a reply stays untaken and
 * the same endpoint is asked twice.
 */
describe('A visitor’s first page asks the API once for each thing it shows', () => {
  const story = useStory();

  it('the home feed, a post, a profile and a tag: each endpoint once, every early reply used', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, {
      title: 'First data post',
      desc: 'Shown from the first reply',
      tags: ['first-data'],
    });

    const screens = [
      { path: '/', ready: 'First data post', endpoints: ['/api/posts', '/api/top-posts'] },
      { path: `/posts/${post._id}`, ready: 'First data post', endpoints: [`/api/posts/${post._id}`] },
      {
        path: `/profile/${author.user._id}`,
        ready: 'First data post',
        endpoints: [`/api/user/${author.user._id}`, `/api/userposts/${author.user._id}`],
      },
      // The tag page's pattern takes a tag's name, not an id (config/routes.ts PARAM_PATTERNS).
      { path: '/t/first-data', ready: 'First data post', endpoints: ['/api/tags/first-data', '/api/posts'] },
    ];
    for (const screen of screens) {
      const page = await story.open('/api/health');
      const requests = recordApiRequests(page);
      await page.goto(screen.path);
      await page.getByRole('heading', { name: screen.ready }).first().waitFor();
      await page.waitForLoadState('networkidle');

      expect(await untakenBootReplies(page)).toEqual([]);
      const counts = countByPath(requests);
      for (const endpoint of screen.endpoints) expect([endpoint, counts[endpoint]]).toEqual([endpoint, 1]);
      for (const [path, count] of Object.entries(counts)) expect([path, count]).toEqual([path, 1]);
    }
  });
});
