import type { Post } from '@techit/contract/api-types';
import { feedPath } from '@techit/contract/feed-paths';
import type { Locator, Page } from 'playwright-core';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import { PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';
import { holdRequests } from '../support/held-requests';

/** The card (or the post's own page) whose heading is `title`. */
function card(page: Page, title: string): Locator {
  return page.getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

function bookmarkButton(page: Page, title: string): Locator {
  return card(page, title).getByRole('button', { name: `Bookmark: ${title}` });
}

/** The headings of the cards the page shows, in order. */
function cardTitles(page: Page): Promise<string[]> {
  return page.getByRole('feed').getByRole('article').getByRole('heading', { level: 2 }).allInnerTexts();
}

/** Waits until the Bookmarks page lists exactly these posts, in this order. */
async function waitForCards(page: Page, titles: string[]): Promise<void> {
  await page.waitForFunction(
    (want) =>
      JSON.stringify(
        Array.from(document.querySelectorAll('[role="feed"] article h2')).map((h) => (h as HTMLElement).innerText),
      ) === JSON.stringify(want),
    titles,
  );
}

async function savedOnServer(story: ReturnType<typeof useStory>, token: string, postId: string): Promise<boolean> {
  const reply = await story.api.request<{ post: Post }>('GET', `/posts/${postId}?view=compact`, undefined, token);
  return reply.post.bookmarked === true;
}

describe('Bookmarks and sharing (issue 19)', () => {
  const story = useStory();

  it('bookmarks a post from the feed, finds it on the Bookmarks page, searches and filters by tag, unbookmarks it', async () => {
    const author = await story.api.user();
    const rust = await story.api.post(author, {
      title: 'Rust ownership notes',
      desc: 'Borrowing, moves',
      tags: ['rust'],
    });
    const kube = await story.api.post(author, {
      title: 'Kubernetes operators guide',
      desc: 'Reconcile loops explained',
      tags: ['kubernetes'],
    });
    await story.api.post(author, { title: 'Never saved', desc: 'Nobody keeps this one' });
    const reader = await story.api.user();
    // Saved earlier through the API: the page lists the newest saved first.
    await story.api.bookmark(reader, rust._id);

    const page = await story.open('/', { session: reader });
    const toggle = bookmarkButton(page, 'Kubernetes operators guide');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    // The card already saved says so.
    expect(await bookmarkButton(page, 'Rust ownership notes').getAttribute('aria-pressed')).toBe('true');
    const saved = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/bookmark');
    await toggle.click();
    await card(page, 'Kubernetes operators guide')
      .getByRole('button', { name: 'Bookmark: Kubernetes operators guide', pressed: true })
      .waitFor();
    await saved;
    expect(await savedOnServer(story, reader.token, kube._id)).toBe(true);

    // It survives a reload: the state is the server's.
    await page.reload();
    await card(page, 'Kubernetes operators guide')
      .getByRole('button', { name: 'Bookmark: Kubernetes operators guide', pressed: true })
      .waitFor();

    // Bookmarks, in the navigation.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookmarks' }).click();
    await page.waitForURL('**/bookmarks');
    await page.getByRole('heading', { level: 1, name: 'Bookmarks' }).waitFor();
    expect(await page.title()).toBe('Bookmarks · TechIt');
    await waitForCards(page, ['Kubernetes operators guide', 'Rust ownership notes']);

    // A search within them (the search's query language)…
    const box = page.getByRole('searchbox', { name: 'Search your bookmarks' });
    await box.fill('reconcile');
    await box.press('Enter');
    await page.waitForURL('**/bookmarks?q=reconcile');
    await waitForCards(page, ['Kubernetes operators guide']);
    // …nothing found says so…
    await box.fill('nothingmatchesthis');
    await box.press('Enter');
    await page.getByText('No bookmarks match').waitFor();
    // …and its × brings the whole list back.
    await page.locator('.bookmark-filters .ant-input-clear-icon').click();
    await page.waitForURL((url) => url.pathname === '/bookmarks' && url.search === '');
    await waitForCards(page, ['Kubernetes operators guide', 'Rust ownership notes']);

    // The tag filter, from the keyboard: type, pick the suggestion with Enter.
    const tag = page.getByRole('combobox', { name: 'Tag' });
    await tag.focus();
    await page.keyboard.type('rust');
    // (The listbox's hidden copies for screen readers follow the active option; the shown one is this.)
    await page.locator('.ant-select-item-option-active').filter({ hasText: '#rust' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/bookmarks?tag=rust');
    await waitForCards(page, ['Rust ownership notes']);
    expect(await cardTitles(page)).toEqual(['Rust ownership notes']);

    // Unbookmarked here, the card goes at once (before the server has answered)…
    const removal = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/unbookmark');
    await bookmarkButton(page, 'Rust ownership notes').click();
    await page.getByText('No bookmarks match').waitFor();
    await removal;
    expect(await savedOnServer(story, reader.token, rust._id)).toBe(false);
    // …and stays gone.
    await page.goto('/bookmarks');
    await waitForCards(page, ['Kubernetes operators guide']);
  });

  it('quick clicks end in the server’s state, and the icon never flips back once the last click showed', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Click me fast' });
    const reader = await story.api.user();
    const page = await story.open(`/posts/${post._id}`, { session: reader });
    const toggle = bookmarkButton(page, 'Click me fast');
    await toggle.waitFor();

    // The server is slow: the icon changes at every click and the requests go one after another.
    const held = await holdRequests(page, ['/api/bookmark', '/api/unbookmark'], 5);
    for (const pressed of [true, false, true, false, true]) {
      await toggle.click();
      await card(page, 'Click me fast').getByRole('button', { name: 'Bookmark: Click me fast', pressed }).waitFor();
    }
    // From now on the icon must not change again: every state it takes is recorded.
    await toggle.evaluate((button) => {
      const seen: string[] = [];
      (window as unknown as { pressedSeen: string[] }).pressedSeen = seen;
      new MutationObserver(() => seen.push(button.getAttribute('aria-pressed') ?? '')).observe(button, {
        attributes: true,
        attributeFilter: ['aria-pressed'],
      });
    });
    held.release();
    await held.allAnswered;
    expect(held.sent).toEqual([
      '/api/bookmark',
      '/api/unbookmark',
      '/api/bookmark',
      '/api/unbookmark',
      '/api/bookmark',
    ]);
    expect(held.mostAtOnce()).toBe(1);
    expect(await savedOnServer(story, reader.token, post._id)).toBe(true);
    // A later post request (a reload of the detail) agrees, and nothing flipped meanwhile.
    await page.unrouteAll({ behavior: 'wait' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => (window as unknown as { pressedSeen: string[] }).pressedSeen)).toEqual([]);
    await page.reload();
    await card(page, 'Click me fast').getByRole('button', { name: 'Bookmark: Click me fast', pressed: true }).waitFor();
  });

  it('a visitor is asked to log in, from the card and from the navigation', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Visitors read this' });
    const page = await story.open('/');
    await bookmarkButton(page, 'Visitors read this').click();
    const toast = page.locator('.ant-notification-notice').filter({ hasText: 'Login Required!' });
    await toast.filter({ hasText: 'Please login to bookmark a post' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookmarks' }).click();
    await toast.filter({ hasText: 'Please login to see your bookmarks' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The page itself sends a visitor home.
    await page.goto('/bookmarks');
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('works from the keyboard: bookmark with Enter, copy the link with Space', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Keyboard only' });
    const reader = await story.api.user();
    const page = await story.open(`/posts/${post._id}`, { session: reader });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const toggle = bookmarkButton(page, 'Keyboard only');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await card(page, 'Keyboard only').getByRole('button', { name: 'Bookmark: Keyboard only', pressed: true }).waitFor();

    // Tab goes on to the share control: no share sheet in this browser, so it copies the link.
    await page.keyboard.press('Tab');
    const copy = card(page, 'Keyboard only').getByRole('button', { name: 'Copy link: Keyboard only' });
    expect(await copy.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await copy.innerText()).toBe('Copy link');
    await page.keyboard.press('Space');
    await page.locator('.ant-notification-notice').filter({ hasText: 'Link copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${story.server.url}/posts/${post._id}`);
  });

  it('unbookmarking from the keyboard on the Bookmarks page hands the focus to the next card', async () => {
    const author = await story.api.user();
    const older = await story.api.post(author, { title: 'Saved first' });
    const newer = await story.api.post(author, { title: 'Saved second' });
    const reader = await story.api.user();
    await story.api.bookmark(reader, older._id);
    await story.api.bookmark(reader, newer._id);
    const page = await story.open('/bookmarks', { session: reader });
    await waitForCards(page, ['Saved second', 'Saved first']);
    await bookmarkButton(page, 'Saved second').focus();
    await page.keyboard.press('Enter');
    await waitForCards(page, ['Saved first']);
    const next = bookmarkButton(page, 'Saved first');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Bookmark: Saved first');
    // The next Enter goes on from there, without the mouse.
    await page.keyboard.press('Enter');
    await page.getByText('No bookmarks yet').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await next.count()).toBe(0);
  });

  it('uses the system share sheet where there is one', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Shared from a phone' });
    const page = await story.open('/', { viewport: PHONE });
    await page.evaluate(() => {
      const shared: ShareData[] = [];
      (window as unknown as { shared: ShareData[] }).shared = shared;
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: (data: ShareData) => {
          shared.push(data);
          return Promise.resolve();
        },
      });
    });
    // The button's name is chosen at render: come back to the feed with the sheet in place.
    await page.getByRole('link', { name: 'Notices' }).click();
    await page.getByRole('link', { name: 'Home' }).click();
    await card(page, 'Shared from a phone').getByRole('button', { name: 'Share: Shared from a phone' }).click();
    await page.waitForFunction(() => (window as unknown as { shared: ShareData[] }).shared.length === 1);
    expect(await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared)).toEqual([
      { title: 'Shared from a phone', url: `${story.server.url}/posts/${post._id}` },
    ]);
  });

  it('on a phone Bookmarks is in the menu, and an empty list says how to fill it', async () => {
    const reader = await story.api.user();
    const page = await story.open('/', { session: reader, viewport: PHONE });
    await page.getByRole('button', { name: 'Menu' }).click();
    await (await settledMenuItem(page, 'Bookmarks')).click();
    await page.waitForURL('**/bookmarks');
    await page.getByText('No bookmarks yet').waitFor();
    await settled(page);
    await expectNoSeriousViolations(page, 'Bookmarks page, empty, phone');
  });

  it('the tag page and the profile link their RSS feeds', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Feed me', tags: ['webdev'] });
    const page = await story.open('/t/webdev');
    const tagFeed = page.getByRole('link', { name: 'RSS feed of #webdev' });
    expect(await tagFeed.getAttribute('href')).toBe(feedPath({ kind: 'tag', name: 'webdev' }, 'rss'));
    await page.goto(`/profile/${author.user._id}`);
    const userFeed = page.getByRole('link', { name: `RSS feed of ${author.user.userName}'s posts` });
    expect(await userFeed.getAttribute('href')).toBe(feedPath({ kind: 'user', id: author.user._id }, 'rss'));
  });
});
