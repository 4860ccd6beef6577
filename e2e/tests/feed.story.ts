import { readFileSync } from 'node:fs';
import type { Post } from '@techit/contract/api-types';
import type { Page } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { scrollsSideways, seenTheme } from '../support/appearance';
import { PHONE, useStory } from '../support/browser';
import { apiPath, holdRequests } from '../support/failing-requests';
import { pngFile } from '../support/images';

/** The titles of the post cards on screen, top to bottom. */
function cardTitles(page: Page): Promise<string[]> {
  return page.getByRole('article').getByRole('heading').allInnerTexts();
}

/** Scrolls down step by step until the feed says it has shown everything. */
async function scrollToTheEnd(page: Page): Promise<void> {
  const end = page.getByText("You're all caught up.");
  for (let step = 0; step < 40 && !(await end.isVisible()); step += 1) {
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(150);
  }
  await end.waitFor();
}

/** Uploads a picture the way the web app does, for posts seeded through the API. */
async function uploadPicture(baseUrl: string, color: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(await pngFile('seed.png', color))], { type: 'image/png' }), 'seed.png');
  const response = await fetch(`${baseUrl}/api/upload`, { method: 'POST', body: form });
  return ((await response.json()) as { url: string }).url;
}

/** Waits until the first card's picture has loaded, so a screenshot shows it. */
async function firstPictureLoaded(page: Page): Promise<void> {
  await page
    .getByRole('article')
    .first()
    .locator('img.post-photo')
    .evaluate((img: HTMLImageElement) => img.decode());
}

function dark(session: Session): Session {
  return { ...session, user: { ...session.user, theme: 'dark' } };
}

describe('A visitor browses the home feed', () => {
  const story = useStory();

  // Runs first, on the story's fresh database: nobody has posted yet.
  it('sees the empty state when there are no posts yet', async () => {
    const page = await story.open('/');
    await page.getByText('No Posts to Show!').waitFor();
    expect(await page.getByText('Try Following more users or go to home.').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
    expect(await page.title()).toBe('Home · TechIt');
  });

  it('scrolls through pages 2 and 3, fetched by cursor, without ever seeing a post twice', async () => {
    const author = await story.api.user();
    const seeded: string[] = [];
    for (let index = 1; index <= 10; index += 1) {
      seeded.push((await story.api.post(author, { title: `Scroll post ${index}`, desc: `Body ${index}` })).title);
    }

    // Watch the feed's requests from the first one: start on a page outside the app.
    const page = await story.open('/api/health', { viewport: { width: 1280, height: 700 } });
    // Answered requests only (a request the app cancels, e.g. on unmount, asked for nothing).
    const feedRequests: URL[] = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/posts') feedRequests.push(url);
    });
    // Hold the later pages back a little, so their loading skeleton can be seen.
    await page.route('**/api/posts?*cursor=*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/');
    await page.getByRole('article').first().waitFor();
    expect((await cardTitles(page)).slice(0, 4)).toEqual(seeded.slice(-4).reverse());

    // Someone posts while the visitor scrolls: the cursor keeps it from pushing a card into page 2 twice.
    await story.api.post(author, { title: 'Posted meanwhile', desc: 'Arrives after the first page' });

    await page.getByRole('article').nth(2).scrollIntoViewIfNeeded();
    await page.getByRole('feed').locator('.ant-skeleton').first().waitFor();
    await scrollToTheEnd(page);

    const titles = await cardTitles(page);
    expect(titles).toEqual([...seeded].reverse());
    expect(new Set(titles).size).toBe(titles.length);

    // Three pages of at most 4, each after the first asking for the previous reply's cursor.
    expect(feedRequests).toHaveLength(3);
    for (const url of feedRequests) {
      expect(url.searchParams.get('feed')).toBe('for-you');
      expect(url.searchParams.get('limit')).toBe('4');
      expect(url.searchParams.has('page')).toBe(false);
    }
    expect(feedRequests[0].searchParams.has('cursor')).toBe(false);
    expect(feedRequests[1].searchParams.get('cursor')).toBeTruthy();
    expect(feedRequests[2].searchParams.get('cursor')).toBeTruthy();
    expect(feedRequests[2].searchParams.get('cursor')).not.toBe(feedRequests[1].searchParams.get('cursor'));
  });

  it('sees the top posts with links to each post and its author', async () => {
    const author = await story.api.user({ userName: 'toppy' });
    const fan = await story.api.user();
    const top = await story.api.post(author, { title: 'The most liked post', desc: 'Everyone likes it' });
    await story.api.like(fan, top._id);
    await story.api.like(author, top._id);
    await story.api.comment(fan, top._id, 'Great post');

    const page = await story.open('/');
    const panel = page.getByRole('region', { name: 'Top Posts' });
    const entry = panel.getByRole('listitem').first();
    await entry.getByRole('link', { name: 'The most liked post' }).waitFor();
    expect(await entry.getByRole('link', { name: 'The most liked post' }).getAttribute('href')).toBe(
      `/posts/${top._id}`,
    );
    expect(await entry.getByRole('link', { name: 'toppy' }).getAttribute('href')).toBe(`/profile/${author.user._id}`);
    expect(await entry.getByRole('img', { name: 'toppy' }).count()).toBe(1);
    expect(await entry.innerText()).toMatch(/2\s*likes/);
    expect(await entry.innerText()).toMatch(/1\s*comment\b/);

    // Visitors get no feed toggle.
    expect(await page.getByRole('navigation', { name: 'Feeds' }).count()).toBe(0);

    await entry.getByRole('link', { name: 'The most liked post' }).click();
    await page.waitForURL(`**/posts/${top._id}`);
    await page.getByRole('heading', { level: 1, name: 'The most liked post' }).waitFor();
  });

  it('is asked to log in to like a post or to create one', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Likeable', desc: 'Try to like me' });
    const page = await story.open('/');
    const card = page.getByRole('article').filter({ hasText: 'Likeable' });
    await card.getByRole('button', { name: /^Like \(/ }).click();
    await page.getByText('Login Required!').waitFor();
    expect(await page.getByText('Please login to like a post').isVisible()).toBe(true);
    expect(await page.locator('.ant-notification').getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(await card.getByRole('button', { name: /^Like \(/ }).getAttribute('aria-pressed')).toBe('false');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create' }).click();
    await page.getByText('Please login to create a post').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('opens a post by clicking its card, or its title from the keyboard', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Click anywhere', desc: 'The card is one big link' });
    const page = await story.open('/');
    await page.getByRole('article').filter({ hasText: 'Click anywhere' }).getByText('The card is one big link').click();
    await page.waitForURL(`**/posts/${post._id}`);
    await page.getByRole('heading', { level: 1, name: 'Click anywhere' }).waitFor();

    await page.goBack();
    const title = page.getByRole('article').filter({ hasText: 'Click anywhere' }).getByRole('link', {
      name: 'Click anywhere',
    });
    await title.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/posts/${post._id}`);
  });

  it('sees the feed in light and dark, and on a phone without the side panel', async () => {
    const author = await story.api.user({ userName: 'shutterbug' });
    await story.api.post(author, {
      title: 'A post with a link to its code',
      desc: 'Shown for the screenshots',
      category: 'Informative',
      link1: 'https://example.com/code',
      link2: 'https://example.com/demo',
      pic: await uploadPicture(story.server.url, '#2f7dd1'),
    });

    const page = await story.open('/');
    await page.getByRole('article').first().waitFor();
    await page.getByRole('region', { name: 'Top Posts' }).getByRole('listitem').first().waitFor();
    await firstPictureLoaded(page);
    expect(await page.getByRole('region', { name: 'Top Posts' }).isVisible()).toBe(true);
    const code = page.getByRole('article').first().getByRole('link', { name: /^Code/ });
    expect(await code.getAttribute('target')).toBe('_blank');
    expect(await code.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await seenTheme(page.getByRole('article').first().getByText('A post with a link to its code'))).toBe(
      'light',
    );
    await story.screenshot(page, 'home-light');

    await page.evaluate(() => localStorage.setItem('techit-theme', 'dark'));
    await page.reload();
    await page.getByRole('article').first().waitFor();
    await page.getByRole('region', { name: 'Top Posts' }).getByRole('listitem').first().waitFor();
    await firstPictureLoaded(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await seenTheme(page.getByRole('article').first().getByText('A post with a link to its code'))).toBe('dark');
    await story.screenshot(page, 'home-dark');

    const phone = await story.open('/', { viewport: PHONE });
    await phone.getByRole('article').first().waitFor();
    await firstPictureLoaded(phone);
    expect(await phone.getByRole('region', { name: 'Top Posts' }).isVisible()).toBe(false);
    expect(await scrollsSideways(phone)).toBe(false);
    await story.screenshot(phone, 'home-light-phone');

    const darkPhone = await story.open('/', { viewport: PHONE, session: dark(await story.api.user()) });
    await darkPhone.getByRole('article').first().waitFor();
    await firstPictureLoaded(darkPhone);
    expect(await seenTheme(darkPhone.getByRole('article').first().getByText('A post with a link to its code'))).toBe(
      'dark',
    );
    expect(await scrollsSideways(darkPhone)).toBe(false);
    await story.screenshot(darkPhone, 'home-dark-phone');
  });

  it("loads the second card's picture first when the first card has none (it is in the first screen)", async () => {
    const author = await story.api.user({ userName: 'second_picture' });
    await story.api.post(author, { title: 'Pictured, older', pic: await uploadPicture(story.server.url, '#16a085') });
    await story.api.post(author, { title: 'Words only, newer' });

    const page = await story.open(`/profile/${author.user._id}`, { viewport: PHONE });
    const cards = page.getByRole('article');
    await cards.nth(1).getByRole('heading', { name: 'Pictured, older' }).waitFor();
    expect(await cards.first().locator('img.post-photo').count()).toBe(0);
    const photo = cards.nth(1).locator('img.post-photo');
    expect(await photo.getAttribute('loading')).toBe('eager');
    expect(await photo.getAttribute('fetchpriority')).toBe('high');
    // The boot script asked for it as soon as the visitor's first reply named it.
    const src = await photo.getAttribute('src');
    expect(
      await page.evaluate(
        (href) =>
          Array.from(document.head.querySelectorAll('link[rel="preload"][as="image"]')).some(
            (link) => link.getAttribute('href') === href,
          ),
        src,
      ),
    ).toBe(true);
  });
});

describe('A member reads the following feed', () => {
  const story = useStory();

  it('sees an empty following feed while following nobody, and can switch back', async () => {
    const member = await story.api.user();
    const stranger = await story.api.user();
    await story.api.post(stranger, { title: 'Not followed yet', desc: 'Only in for you' });

    const page = await story.open('/', { session: member });
    await page.getByRole('article').first().waitFor();
    const toggle = page.getByRole('navigation', { name: 'Feeds' });
    expect(await toggle.getByRole('link', { name: 'For you' }).getAttribute('aria-current')).toBe('page');

    await toggle.getByRole('link', { name: 'Following' }).click();
    await page.waitForURL('**/?feed=following');
    await page.getByText('No Posts to Show!').waitFor();
    expect(await page.getByText('Try Following more users or go to home.').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1, name: 'Following' }).isVisible()).toBe(true);
    expect(await toggle.getByRole('link', { name: 'Following' }).getAttribute('aria-current')).toBe('page');
    expect(await page.title()).toBe('Following feed · TechIt');

    await toggle.getByRole('link', { name: 'For you' }).click();
    await page.getByRole('heading', { name: 'Not followed yet' }).waitFor();
  });

  it('sees only the posts of the users they follow', async () => {
    const member = await story.api.user();
    const friend = await story.api.user();
    const stranger = await story.api.user();
    await story.api.post(friend, { title: 'From a friend', desc: 'Followed' });
    await story.api.post(stranger, { title: 'From a stranger', desc: 'Not followed' });
    const following = await story.api.follow(member, friend.user._id);

    const page = await story.open('/?feed=following', { session: { ...member, user: following } });
    await page.getByRole('heading', { name: 'From a friend' }).waitFor();
    expect(await cardTitles(page)).toEqual(['From a friend']);
  });

  it('as a visitor, does not load the following feed at all', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Somebody posted', desc: 'But the visitor follows nobody' });
    const page = await story.open('/api/health');
    const feedRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/posts') feedRequests.push(request.url());
    });
    await page.goto('/?feed=following');
    await page.getByText('Log in to see your Following feed').waitFor();
    await page.getByRole('region', { name: 'Top Posts' }).getByRole('listitem').first().waitFor();
    expect(feedRequests).toEqual([]);
    expect(await page.getByRole('navigation', { name: 'Feeds' }).count()).toBe(0);
  });
});

describe('A member likes while the feed is scrolling', () => {
  const story = useStory();

  it('keeps the like when the next page arrives after it, and the heart fills at once', async () => {
    const author = await story.api.user();
    const member = await story.api.user();
    for (let index = 1; index <= 6; index += 1) {
      await story.api.post(author, { title: `Race post ${index}`, desc: `Body ${index}` });
    }
    const page = await story.open('/api/health', { session: member, viewport: { width: 1280, height: 700 } });
    const nextPage = await holdRequests(page, '**/api/posts?*cursor=*');
    const likeReplies = await holdRequests(page, apiPath('/like'));
    await page.goto('/');
    const card = page.getByRole('article').filter({ hasText: 'Race post 4' });
    await card.waitFor();

    // Scrolling down asks for the next page, which the server is slow to answer.
    await page.getByRole('article').nth(2).scrollIntoViewIfNeeded();
    await nextPage.arrived;

    // The like shows before the server has answered.
    await card.getByRole('button', { name: 'Like (0 likes)', pressed: false }).click();
    await likeReplies.arrived;
    await card.getByRole('button', { name: 'Like (1 like)', pressed: true }).waitFor();
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/like');
    await likeReplies.release();
    await answered;
    await card.getByRole('button', { name: 'Like (1 like)', pressed: true }).waitFor();

    // The page asked for before the like arrives after it: the like stays.
    await nextPage.release();
    await page.getByRole('heading', { name: 'Race post 1' }).waitFor();
    expect(await card.getByRole('button', { name: /^Like \(/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await card.getByRole('button', { name: /^Like \(/ }).innerText()).toMatch(/^Like \(1 like\)\s*1$/);
    const seen = await story.api.request<{ post: Post }>(
      'GET',
      `/posts/${(await story.api.request<{ posts: Post[] }>('GET', '/posts?feed=for-you&limit=4')).posts[2]._id}`,
      undefined,
      member.token,
    );
    expect(seen.post.title).toBe('Race post 4');
    expect(seen.post.likes).toContain(member.user._id);
  });
});

describe('Someone scrolls the feed and opens a post', () => {
  const story = useStory();

  it('sees the post from its top, by link or by typing its address, and the feed where they left it on Back from the post', async () => {
    const author = await story.api.user();
    const long = await story.api.post(author, {
      title: 'A long read',
      desc: Array.from({ length: 40 }, (_, line) => `Line ${line + 1}`).join('\n'),
    });
    for (let index = 1; index <= 30; index += 1) await story.api.comment(author, long._id, `Comment ${index}`);
    for (let index = 1; index <= 9; index += 1) {
      await story.api.post(author, { title: `Filler post ${index}`, desc: `Body ${index}` });
    }
    const page = await story.open('/', { viewport: { width: 1280, height: 700 } });
    await page.getByRole('article').first().waitFor();
    const linkToLong = page.getByRole('article').filter({ hasText: 'A long read' }).getByRole('link', {
      name: 'A long read',
    });
    // Scrolled far down the feed, to the long post (in the third page).
    for (let step = 0; step < 40 && !(await linkToLong.isVisible()); step += 1) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(150);
    }
    await linkToLong.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(600);

    // By link: the post starts at its top; Back returns to the same place in the feed.
    await linkToLong.click();
    await page.getByRole('heading', { level: 1, name: 'A long read' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await linkToLong.waitFor();
    await page.waitForFunction((y) => window.scrollY === y, scrolled);

    // By typing its address in the same tab: the post starts at its top too.
    await page.goto(`/posts/${long._id}`);
    await page.getByRole('heading', { level: 1, name: 'A long read' }).waitFor();
    await page.getByText('Comment 30').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(700 + scrolled);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // Back in a new document: the feed is there again (its later pages are fetched anew).
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'For you' }).waitFor();
    await page.getByRole('article').first().waitFor();
  });
});
