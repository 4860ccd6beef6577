import { imageVariant } from '@techit/contract/image-variants';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import type { Locator, Page } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { scrollsSideways, seenTheme } from '../support/appearance';
import { PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';
import { pngFile } from '../support/images';

const dark = (session: Session): Session => ({ ...session, user: { ...session.user, theme: 'dark' } });

/** The stored user (techit-user) as the app last saved it. */
const storedUser = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('techit-user') ?? 'null') as Record<string, unknown>);

/** Presses ArrowDown until `target` has the focus (the menu moves it a frame after each key). */
async function arrowTo(page: Page, target: Locator): Promise<void> {
  for (let step = 0; step < 6; step += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    const before = await page.evaluateHandle(() => document.activeElement);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((element) => document.activeElement !== element, before);
  }
  throw new Error('The menu item never received the focus');
}

/** An Edit Profile dialog, once it has opened (its animation over) and put the focus in its field. */
async function openedDialog(page: Page, title: string, field: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: title });
  const input = await dialog.getByLabel(field, { exact: true }).elementHandle();
  await page.waitForFunction((element) => element === document.activeElement, input);
  return dialog;
}

const header = (page: Page) => page.locator('.profile-header');
const count = (page: Page, text: string) => header(page).getByText(text, { exact: true });

describe('A member follows another member', () => {
  const story = useStory();

  it('sees the Follow button turn into Unfollow, the count go up, and the posts arrive in the following feed', async () => {
    const alice = await story.api.user();
    const bob = await story.api.user();
    await story.api.post(bob, { title: 'Bob on borrow checking', desc: 'Lifetimes, gently' });

    const page = await story.open(`/profile/${bob.user._id}`, { session: alice });
    await page.getByRole('heading', { name: bob.user.userName }).waitFor();
    expect(await page.title()).toBe(`${bob.user.userName} · TechIt`);
    await count(page, '0 followers').waitFor();
    await story.screenshot(page, 'profile-other-light');

    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: 'Unfollow' }).waitFor();
    await count(page, '1 follower').waitFor();
    expect((await storedUser(page)).following).toEqual([bob.user._id]);

    await page.goto('/?feed=following');
    await page.getByRole('feed', { name: 'Posts' }).getByText('Bob on borrow checking').waitFor();
  });

  it('sees Unfollow turn back into Follow, the count go down, and the posts leave the following feed', async () => {
    const alice = await story.api.user();
    const carol = await story.api.user();
    await story.api.post(carol, { title: 'Carol ships a parser', desc: 'Recursive descent' });
    const me = await story.api.follow(alice, carol.user._id);

    const page = await story.open(`/profile/${carol.user._id}`, { session: { ...alice, user: me } });
    await count(page, '1 follower').waitFor();
    await page.getByRole('button', { name: 'Unfollow' }).click();
    await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    await count(page, '0 followers').waitFor();
    expect((await storedUser(page)).following).toEqual([]);

    await page.goto('/?feed=following');
    await page.getByText('No Posts to Show!').waitFor();
    // (The Top Posts panel still lists it: only the feed itself must lose it.)
    expect(await page.getByRole('feed', { name: 'Posts' }).getByText('Carol ships a parser').count()).toBe(0);
  });

  it('shows the other profile in the dark theme', async () => {
    const alice = await story.api.user();
    const dave = await story.api.user();
    await story.api.request('PUT', '/position', { position: 'Site reliability engineer' }, dave.token);
    await story.api.request('PUT', '/bio', { bio: 'Keeps the lights on. Writes postmortems.' }, dave.token);
    await story.api.post(dave, { title: 'On call, without tears', desc: 'Runbooks that people read' });
    const page = await story.open(`/profile/${dave.user._id}`, { session: dark(alice) });
    await page.getByText('On call, without tears').first().waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    expect(await seenTheme(page.getByText('On call, without tears').first())).toBe('dark');
    expect(await seenTheme(page.getByText('Site reliability engineer'))).toBe('dark');
    await story.screenshot(page, 'profile-other-dark');
  });
});

describe('A visitor looks at profiles', () => {
  const story = useStory();

  it('is asked to log in when pressing Follow', async () => {
    const erin = await story.api.user();
    const page = await story.open(`/profile/${erin.user._id}`);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByText('Login Required!').waitFor();
    await page.getByText('Please login to follow a user').waitFor();
    await count(page, '0 followers').waitFor();
  });

  it("sees 'No Posts to Show!' on a new user's profile and 'No Notices to Show!' on its Notice tab", async () => {
    const frank = await story.api.user();
    const page = await story.open(`/profile/${frank.user._id}`);
    await page.getByRole('tab', { name: 'Posts' }).waitFor();
    await page.getByText('No Posts to Show!').waitFor();
    await page.getByRole('tab', { name: 'Notice' }).click();
    await page.getByText('No Notices to Show!').waitFor();
  });

  it('moves between the Posts and Notice tabs with the keyboard alone', async () => {
    const gina = await story.api.user();
    await story.api.post(gina, { title: 'Tabs by keyboard', desc: 'A post on the Posts tab' });
    await story.api.notice(gina, { desc: 'A notice on the Notice tab' });
    const page = await story.open(`/profile/${gina.user._id}`);
    await page.getByText('Tabs by keyboard').first().waitFor();
    const posts = page.getByRole('tab', { name: 'Posts' });
    const notice = page.getByRole('tab', { name: 'Notice' });
    const panel = page.getByRole('tabpanel');
    const focused = (tab: Locator) => tab.evaluate((element) => element === document.activeElement);
    const selected = async () => ({
      posts: await posts.getAttribute('aria-selected'),
      notice: await notice.getAttribute('aria-selected'),
    });

    // Tab reaches the tab list at its selected tab (the other one is not a stop of its own).
    await page.getByRole('button', { name: 'Follow', exact: true }).focus();
    for (let presses = 0; !(await focused(posts)); presses += 1) {
      expect(await focused(notice)).toBe(false);
      if (presses === 10) throw new Error('Tab never reached the tab list');
      await page.keyboard.press('Tab');
    }
    expect(await selected()).toEqual({ posts: 'true', notice: 'false' });
    expect(await page.getByRole('tablist').getByRole('tab').count()).toBe(2);

    // An arrow moves the focus only (and says where it is); the panel stays until Enter opens the tab.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Notice'));
    expect(await focused(notice)).toBe(true);
    expect(await notice.textContent()).toContain('Tab 2 of 2');
    expect(await selected()).toEqual({ posts: 'true', notice: 'false' });
    expect(await panel.getByText('Tabs by keyboard').isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await panel.getByText('A notice on the Notice tab').waitFor();
    await page.waitForURL((url) => url.search === '?tab=notices');
    expect(await selected()).toEqual({ posts: 'false', notice: 'true' });
    expect(await focused(notice)).toBe(true);
    expect(await panel.getAttribute('aria-labelledby')).toBe(await notice.getAttribute('id'));
    expect(await panel.getByText('Tabs by keyboard').count()).toBe(0);

    // The arrows wrap around, Home and End go to the ends, and Space opens a tab as Enter does.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Posts'));
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Notice'));
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Posts'));
    expect(await posts.textContent()).toContain('Tab 1 of 2');
    expect(await selected()).toEqual({ posts: 'false', notice: 'true' });
    await page.keyboard.press('Space');
    await panel.getByText('Tabs by keyboard').waitFor();
    await page.waitForURL((url) => url.search === '');
    expect(await selected()).toEqual({ posts: 'true', notice: 'false' });
    expect(await focused(posts)).toBe(true);
    expect(await panel.getByText('A notice on the Notice tab').count()).toBe(0);

    // From the selected tab, Tab goes into the panel and Shift+Tab comes back to the same tab.
    await page.keyboard.press('Tab');
    expect(await panel.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await panel.getAttribute('aria-labelledby')).toBe(await posts.getAttribute('id'));
    await page.keyboard.press('Shift+Tab');
    expect(await focused(posts)).toBe(true);
  });

  it("sees 'This User doesn't exist!' for an unknown user", async () => {
    const page = await story.open('/profile/ffffffffffffffffffffffff');
    await page.getByText("This User doesn't exist!").waitFor();
    await page.getByText('Try searching for another user or go to Home.').waitFor();
    await page.goto('/profile/not-an-id');
    await page.getByText("This User doesn't exist!").waitFor();
  });
});

describe('A member edits their profile', () => {
  const story = useStory();

  it('updates the profile picture from a file, then removes it back to the default', async () => {
    const gina = await story.api.user();
    const page = await story.open(`/profile/${gina.user._id}`, { session: gina });
    const avatar = header(page).getByRole('img', { name: gina.user.userName });
    expect(await avatar.getAttribute('src')).toBe(DEFAULT_PROFILE_PIC);

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      (await settledMenuItem(page, 'Update Profile Picture')).click(),
    ]);
    await chooser.setFiles(await pngFile('me.png', '#d14b2f'));
    await page.getByText('Updated your picture').waitFor();
    await page.waitForFunction(
      (name) =>
        /^\/uploads\/[0-9a-f]{24}-\d+x\d+\.avatar\.webp$/.test(
          document.querySelector(`.profile-header img[alt="${name}"]`)?.getAttribute('src') ?? '',
        ),
      gina.user.userName,
    );
    const uploaded = await avatar.getAttribute('src');
    // The avatar shows the square avatar-size copy of the stored picture.
    expect(imageVariant((await storedUser(page)).pic as string, 'avatar').src).toBe(uploaded);
    // The navigation shows the new picture too.
    expect(await page.locator(`nav img[src="${uploaded}"]`).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await (await settledMenuItem(page, 'Remove Profile Picture')).click();
    await page.getByText('Removed your picture').waitFor();
    await page.waitForFunction(
      ([name, pic]) => document.querySelector(`.profile-header img[alt="${name}"]`)?.getAttribute('src') === pic,
      [gina.user.userName, DEFAULT_PROFILE_PIC],
    );
    expect((await storedUser(page)).pic).toBe(DEFAULT_PROFILE_PIC);
  });

  it('updates the position with a visible counter', async () => {
    const hana = await story.api.user();
    const page = await story.open(`/profile/${hana.user._id}`, { session: hana });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await (await settledMenuItem(page, 'Update Position')).click();
    const dialog = await openedDialog(page, 'Update Position', 'Position');
    await dialog.getByLabel('Position').fill('Staff engineer');
    await dialog.getByText('14 / 42').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await header(page).getByText('Staff engineer').waitFor();
    expect((await storedUser(page)).position).toBe('Staff engineer');

    await page.reload();
    await header(page).getByText('Staff engineer').waitFor();
  });

  it('updates the bio with a visible counter, and cannot save 161 characters', async () => {
    const ivan = await story.api.user();
    const page = await story.open(`/profile/${ivan.user._id}`, { session: ivan });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await (await settledMenuItem(page, 'Update Bio')).click();
    const dialog = await openedDialog(page, 'Update Bio', 'Bio');
    const bio = dialog.getByLabel('Bio');
    await bio.fill('x'.repeat(161));
    await dialog.getByText('161 / 160').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.getByText('Bio must be at most 160 characters').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    const saved = await story.api.request<{ user: { bio: string } }>('GET', `/user/${ivan.user._id}`);
    expect(saved.user.bio).toBe('');

    await bio.fill('Compilers, coffee, and careful code review.');
    await dialog.getByText('43 / 160').waitFor();
    await dialog.getByText('Bio must be at most 160 characters').waitFor({ state: 'detached' });
    await story.screenshot(page, 'bio-dialog-light');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await header(page).getByText('Compilers, coffee, and careful code review.').waitFor();
    expect((await storedUser(page)).bio).toBe('Compilers, coffee, and careful code review.');
  });

  it('closes the bio dialog with Close, changing nothing', async () => {
    const jane = await story.api.user();
    const page = await story.open(`/profile/${jane.user._id}`, { session: dark(jane) });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await (await settledMenuItem(page, 'Update Bio')).click();
    const dialog = await openedDialog(page, 'Update Bio', 'Bio');
    await dialog.getByLabel('Bio').fill('Not this one');
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    await story.screenshot(page, 'bio-dialog-dark');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByText('Not this one').count()).toBe(0);
  });

  it('uses the Edit Profile menu by keyboard', async () => {
    const kim = await story.api.user();
    const page = await story.open(`/profile/${kim.user._id}`, { session: kim });
    await page.getByRole('button', { name: 'Edit Profile' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Update Position' }).waitFor();
    await arrowTo(page, page.getByRole('menuitem', { name: 'Update Position' }));
    await page.keyboard.press('Enter');
    const dialog = await openedDialog(page, 'Update Position', 'Position');
    await page.keyboard.type('Not saved');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Edit Profile' }).focus();
    await page.keyboard.press('Enter');
    await arrowTo(page, page.getByRole('menuitem', { name: 'Update Position' }));
    await page.keyboard.press('Enter');
    await openedDialog(page, 'Update Position', 'Position');
    await page.keyboard.type('Keyboard person');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await header(page).getByText('Keyboard person').waitFor();
    expect(await page.getByText('Not saved').count()).toBe(0);
  });

  it('shows a hostile bio as text and runs nothing', async () => {
    const mallory = await story.api.user();
    const viewer = await story.api.user();
    const hostile = '<img src=x onerror=alert(1)>';
    await story.api.request('PUT', '/bio', { bio: hostile }, mallory.token);
    const page = await story.open(`/profile/${mallory.user._id}`, { session: viewer });
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await header(page).getByText(hostile).waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await page.waitForTimeout(300);
    expect(dialogs).toBe(0);
  });

  it('shows the own profile in light, dark and on a phone', async () => {
    const lee = await story.api.user();
    await story.api.request('PUT', '/position', { position: 'Frontend developer' }, lee.token);
    const me = await story.api.request<Session['user']>(
      'PUT',
      '/bio',
      { bio: 'Builds accessible interfaces. Likes keyboards, dislikes modals that trap you.' },
      lee.token,
    );
    const session = { ...lee, user: me };
    await story.api.post(lee, { title: 'Focus rings are features', desc: 'Please stop removing them' });
    await story.api.notice(lee, { desc: 'Accessibility meetup on Friday', links: ['https://example.com/meetup'] });

    const page = await story.open(`/profile/${lee.user._id}`, { session });
    await page.getByText('Focus rings are features').first().waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    expect(await page.getByRole('button', { name: 'Follow', exact: true }).count()).toBe(0);
    expect(await seenTheme(page.getByText('Focus rings are features').first())).toBe('light');
    await story.screenshot(page, 'profile-own-light');

    const darkPage = await story.open(`/profile/${lee.user._id}?tab=notices`, { session: dark(session) });
    await darkPage.getByText('Accessibility meetup on Friday').waitFor();
    expect(await seenTheme(darkPage.getByText('Accessibility meetup on Friday'))).toBe('dark');
    await story.screenshot(darkPage, 'profile-own-dark');

    const phone = await story.open(`/profile/${lee.user._id}`, { session, viewport: PHONE });
    await phone.getByText('Focus rings are features').first().waitFor();
    expect(await seenTheme(phone.getByText('Focus rings are features').first())).toBe('light');
    expect(await scrollsSideways(phone)).toBe(false);
    await story.screenshot(phone, 'profile-phone-light');

    const phoneDark = await story.open(`/profile/${lee.user._id}`, { session: dark(session), viewport: PHONE });
    await phoneDark.getByText('Focus rings are features').first().waitFor();
    expect(await seenTheme(phoneDark.getByText('Focus rings are features').first())).toBe('dark');
    expect(await scrollsSideways(phoneDark)).toBe(false);
    await story.screenshot(phoneDark, 'profile-phone-dark');
  });
});
