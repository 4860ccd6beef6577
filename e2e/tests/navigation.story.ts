import { DESKTOP, PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';

describe('Someone finds their way around', () => {
  const story = useStory();

  it('sees the left bar and no bottom bar on a large screen', async () => {
    const page = await story.open('/notices', { viewport: DESKTOP });
    await page.locator('.left-nav').waitFor();
    expect(await page.locator('.left-nav').isVisible()).toBe(true);
    expect(await page.locator('.bottom-nav').isVisible()).toBe(false);
  });

  it('sees the bottom bar and no left bar on a phone (390×844)', async () => {
    const member = await story.api.user();
    const page = await story.open('/notices', { viewport: PHONE, session: member });
    await page.locator('.bottom-nav').waitFor();
    expect(await page.locator('.left-nav').isVisible()).toBe(false);
    const bar = page.locator('.bottom-nav');
    for (const name of ['Home', 'Notices', 'Create post', 'Menu', 'Your profile']) {
      expect(await bar.getByRole(name === 'Menu' ? 'button' : 'link', { name }).isVisible()).toBe(true);
    }
    await bar.getByRole('button', { name: 'Menu' }).click();
    for (const item of ['For You Feed', 'Following Feed', 'Dark Mode', 'Logout']) {
      await page.getByRole('menuitem', { name: item }).waitFor();
    }
    await (await settledMenuItem(page, 'Following Feed')).click();
    await page.waitForURL((url) => url.search === '?feed=following');
    await story.screenshot(page, 'phone-menu-light');
  });

  it('marks Notices with a pin, and keeps the bell for a member’s notifications alone', async () => {
    const member = await story.api.user();
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await story.open('/notices', { viewport });
      const bar = page.locator(viewport === DESKTOP ? '.left-nav' : '.bottom-nav');
      const notices = bar.getByRole('link', { name: 'Notices' });
      await notices.waitFor();
      expect(await notices.locator('.anticon-pushpin').count()).toBe(1);
      // A visitor has no notifications: no bell anywhere, the shell drawn before the scripts run included.
      expect(await page.locator('.anticon-bell').count()).toBe(0);

      const signedIn = await story.open('/notices', { viewport, session: member });
      const memberBar = signedIn.locator(viewport === DESKTOP ? '.left-nav' : '.bottom-nav');
      const bell = memberBar.getByRole('link', { name: 'Notifications' });
      await bell.waitFor();
      expect(await bell.locator('.anticon-bell').count()).toBe(1);
      expect(await memberBar.getByRole('link', { name: 'Notices' }).locator('.anticon-bell').count()).toBe(0);
    }
  });

  it('offers Create as a link to /createpost in both bars, so it can open in a new tab', async () => {
    const member = await story.api.user();
    for (const [viewport, bar, name] of [
      [DESKTOP, '.left-nav', 'Create'],
      [PHONE, '.bottom-nav', 'Create post'],
    ] as const) {
      const page = await story.open('/notices', { viewport, session: member });
      const create = page.locator(bar).getByRole('link', { name });
      await create.waitFor();
      expect(await create.getAttribute('href')).toBe('/createpost');
      await create.click();
      await page
        .getByRole('heading', { name: /create/i })
        .first()
        .waitFor();
      expect(new URL(page.url()).pathname).toBe('/createpost');
    }
  });

  it('tells a visitor who presses Create that they must log in, with a link to the login page', async () => {
    const page = await story.open('/notices');
    await page.getByRole('link', { name: 'Create' }).click();
    const toast = page.locator('.ant-notification-notice').filter({ hasText: 'Login Required!' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Please login to create a post');
    await toast.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL('**/login');
  });

  it('closes a toast by itself after 5 seconds', async () => {
    const page = await story.open('/notices');
    await page.getByRole('link', { name: 'Create' }).click();
    const toast = page.locator('.ant-notification-notice').filter({ hasText: 'Login Required!' });
    await toast.waitFor();
    const shownAt = Date.now();
    await toast.waitFor({ state: 'detached', timeout: 8000 });
    expect(Date.now() - shownAt).toBeGreaterThan(4000);
  });

  it('sends a visitor who opens /createpost back home', async () => {
    const page = await story.open('/createpost');
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('shows a not-found page for an address that is no page', async () => {
    const page = await story.open('/no/such/page');
    await page.getByText("This page doesn't exist!").waitFor();
    expect(await page.title()).toBe('Page not found · TechIt');
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('shortens a long name (over 15) to 12 characters and a long email (over 18) to 15, with an ellipsis', async () => {
    const member = await story.api.user({
      userName: 'averyveryverylongname',
      email: 'someone.with.a.long.address@example.com',
    });
    const page = await story.open('/notices', { session: member });
    const profile = page.getByRole('link', { name: 'Your profile: averyveryverylongname' });
    await profile.waitFor();
    expect(await profile.textContent()).toContain('averyveryver…');
    expect(await profile.textContent()).toContain('someone.with.a.…');
    await story.screenshot(page, 'left-nav-long-name-light');
  });

  it('reaches every main place with the keyboard alone', async () => {
    const page = await story.open('/notices');
    await page.getByRole('link', { name: 'Feed' }).waitFor();
    const names: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press('Tab');
      names.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(names).toEqual(expect.arrayContaining(['TechIt', 'Feed', 'Notices', 'Create', 'More']));
  });
});
