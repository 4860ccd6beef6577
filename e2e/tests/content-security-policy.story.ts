import type { Me } from '@techit/contract/api-types';
import type { Page } from 'playwright-core';
import { useStory } from '../support/browser';
import { settledConfirm, settledMenuItem } from '../support/dialogs';
import { holdAppScripts } from '../support/held-scripts';
import { pngFile } from '../support/images';

/**
 * The built app under the server's Content-Security-Policy (script-src 'self', no inline script,
 * img-src 'self' data: blob:, frame-ancestors 'none' …): nothing it does is blocked. The browser
 * reports a blocked script, style, image or connection as a `securitypolicyviolation` event and a
 * console message; both are collected across every page load of a tab and must stay empty.
 */
async function watchPolicy(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportPolicyViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportPolicyViolation: (text: string) => void }).reportPolicyViolation;
      void report(`${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** At least `count` of our images have loaded, and no image on the page is broken (a blocked one is). */
async function expectImagesShown(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (atLeast) =>
      Array.from(document.images).filter((image) => image.src.includes('/uploads/') && image.naturalWidth > 0).length >=
      atLeast,
    count,
  );
  const broken = await page.evaluate(() =>
    Array.from(document.images)
      .filter((image) => image.complete && image.naturalWidth === 0)
      .map((image) => image.src),
  );
  expect(broken).toEqual([]);
}

const HOSTILE_TITLE = '<img src=x onerror="window.pwned=1">';
const HOSTILE_DESC = '<script>window.pwned=1</script> and <b>bold</b>';

describe('The web app under a strict Content-Security-Policy', () => {
  const story = useStory();

  it('signs up, posts a picture, opens a post, a profile and the notices, switches theme: nothing blocked', async () => {
    const page = await story.open('/api/health');
    const violations = await watchPolicy(page);
    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self';");
    await page.getByText('No Posts to Show!').waitFor();

    await page.goto('/signup');
    await page.getByLabel('Username').fill('strict_ada');
    await page.getByLabel('Email').fill('strict_ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    // The chosen picture is previewed from a blob: URL before it is uploaded.
    await page.getByLabel('Choose a picture').setInputFiles(await pngFile('ada.png', '#16a085'));
    await page.getByAltText('Preview of the chosen image').waitFor();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Signed up successfully').waitFor();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await page.getByLabel('Username').fill('strict_ada');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Signed in successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    const me = await page.evaluate(() => JSON.parse(localStorage.getItem('techit-user') ?? 'null') as Me);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Create a post' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill(HOSTILE_TITLE);
    await page.getByLabel('Description').fill(HOSTILE_DESC);
    await page.getByLabel('Choose an image').setInputFiles(await pngFile('board.png', '#c0392b'));
    await page.getByRole('img', { name: 'Preview of the chosen image' }).waitFor();
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByText('Created post successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    // User text is shown as text: the markup appears literally and nothing in it ran.
    const card = page.getByRole('article').first();
    await card.getByRole('heading', { name: HOSTILE_TITLE }).waitFor();
    expect(await card.innerText()).toContain(HOSTILE_DESC);
    expect(await card.locator('b, script, img[src="x"]').count()).toBe(0);
    const postPath = await card.locator('a[href^="/posts/"]').first().getAttribute('href');
    expect(postPath).toMatch(/^\/posts\/[0-9a-f]{24}$/);

    await page.goto(postPath!);
    await page.getByRole('heading', { name: HOSTILE_TITLE }).waitFor();
    await expectImagesShown(page, 2);
    // A confirm dialog locks the page's scrolling with a <style> of its own (why style-src allows inline).
    await page
      .getByRole('button', { name: /^Delete/ })
      .first()
      .click();
    const dialog = await settledConfirm(page, 'Are you sure you want to delete this post?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.goto(`/profile/${me._id}`);
    await page.getByRole('heading', { name: 'strict_ada' }).waitFor();
    await expectImagesShown(page, 2);

    const author = await story.api.user();
    await story.api.notice(author, {
      desc: 'Meetup <script>window.pwned=1</script>',
      links: ['https://example.com/meetup'],
    });
    await page.goto('/notices');
    await page.getByRole('heading', { name: 'Notices', level: 1 }).waitFor();
    await page.getByText('Meetup <script>window.pwned=1</script>').waitFor();

    await page.getByRole('button', { name: 'More' }).click();
    await (await settledMenuItem(page, 'Dark Mode')).click();
    await page.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'dark');
    await page.goto('/');
    await page.getByRole('article').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');

    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(violations).toEqual([]);
  });

  it('shows the API documentation (Swagger UI) under the same policy', async () => {
    const page = await story.open('/api/health');
    const violations = await watchPolicy(page);
    await page.goto('/api/docs');
    await page.locator('.swagger-ui .info .title').filter({ hasText: 'TechIt API' }).waitFor();
    await page.getByText('/api/health', { exact: true }).first().waitFor();
    expect(violations).toEqual([]);
  });
});

describe('The theme under a policy with no inline script', () => {
  const story = useStory();

  it('has no inline script in the page, and its boot script file sets a stored dark theme before the body exists', async () => {
    const page = await story.open('/login');
    const violations = await watchPolicy(page);
    await page.evaluate(() => localStorage.setItem('techit-theme', 'dark'));
    // What the page looks like when <body> is created, before anything can be painted in it.
    await page.addInitScript(() => {
      const seen = window as unknown as { themeAtBody?: string | null; backgroundAtBody?: string };
      new MutationObserver((_records, observer) => {
        if (!document.body) return;
        seen.themeAtBody = document.documentElement.getAttribute('data-theme');
        seen.backgroundAtBody = document.documentElement.style.backgroundColor;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    // Hold the app's own code back, so only the boot script can have set the theme by then.
    const release = await holdAppScripts(page);

    await page.goto('/notices', { waitUntil: 'commit' });
    await page.waitForFunction(() => document.body !== null);
    const seen = await page.evaluate(() => {
      const state = window as unknown as { themeAtBody?: string | null; backgroundAtBody?: string };
      return { theme: state.themeAtBody, background: state.backgroundAtBody };
    });
    expect(seen).toEqual({ theme: 'dark', background: 'rgb(20, 20, 20)' });

    const scripts = await page.evaluate(() =>
      Array.from(document.querySelectorAll('script')).map((script) => ({
        src: script.getAttribute('src'),
        inline: script.textContent?.trim() ?? '',
      })),
    );
    expect(scripts.filter((script) => !script.src || script.inline !== '')).toEqual([]);
    expect(scripts[0].src).toMatch(/^\/assets\/boot-[\w-]+\.js$/);

    await release();
    await page.getByRole('heading', { name: 'Notices', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    expect(violations).toEqual([]);
  });
});
