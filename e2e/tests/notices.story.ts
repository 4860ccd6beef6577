import type { Locator, Page } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { scrollsSideways, seenTheme } from '../support/appearance';
import { PHONE, useStory } from '../support/browser';
import { settled } from '../support/accessibility';
import { settledConfirm } from '../support/dialogs';
import { failRequests } from '../support/failing-requests';

const dark = (session: Session): Session => ({ ...session, user: { ...session.user, theme: 'dark' } });

/** The notice card whose text is `desc`. */
const noticeCard = (page: Page, desc: string): Locator =>
  page.getByRole('article').filter({ has: page.getByText(desc, { exact: true }) });

/** Switches the create page from Post to Notice, as a person does: by clicking the toggle's label. */
async function chooseNotice(page: Page): Promise<void> {
  await page.getByRole('radiogroup', { name: 'What to create' }).getByText('Notice', { exact: true }).click();
  expect(await page.getByRole('radio', { name: 'Notice', exact: true }).isChecked()).toBe(true);
}

function confirmation(page: Page): Promise<Locator> {
  return settledConfirm(page, 'Are you sure you want to delete this notice?');
}

async function confirmDelete(page: Page): Promise<void> {
  await (await confirmation(page)).getByRole('button', { name: 'Delete', exact: true }).click();
}

async function expectNumberedLinks(card: Locator, links: string[]): Promise<void> {
  for (const [index, href] of links.entries()) {
    const link = card.getByRole('link', { name: `Link ${index + 1}` });
    expect(await link.getAttribute('href')).toBe(href);
    expect(await link.getAttribute('target')).toBe('_blank');
    const rel = ((await link.getAttribute('rel')) ?? '').split(/\s+/);
    expect(rel).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
  }
  expect(await card.getByRole('link', { name: /^Link \d/ }).count()).toBe(links.length);
}

describe('A visitor opens the notices page before anyone has posted one', () => {
  const story = useStory();

  it("sees 'No Notices to Show!'", async () => {
    const page = await story.open('/notices');
    await page.getByRole('heading', { name: 'Notices', level: 1 }).waitFor();
    await page.getByText('No Notices to Show!').waitFor();
    expect(await page.title()).toBe('Notices · TechIt');
  });
});

describe('A member posts a notice', () => {
  const story = useStory();

  it('creates a notice with three links from the create page and sees them numbered on /notices and on the profile', async () => {
    const nina = await story.api.user();
    const links = ['https://example.com/talk', 'https://example.org/slides', 'http://example.net/video'];
    const page = await story.open('/createpost', { session: nina });
    await chooseNotice(page);

    await page.getByLabel('Description').fill('Rust meetup this Thursday');
    const add = page.getByRole('button', { name: 'Add Link +' });
    await add.click();
    await add.click();
    await add.click();
    expect(await add.isDisabled()).toBe(true);
    // A link input can be removed again, and another added in its place.
    await page.getByRole('button', { name: 'Remove link 3' }).click();
    expect(await page.getByLabel('Link 3', { exact: true }).count()).toBe(0);
    await add.click();
    for (const [index, href] of links.entries()) {
      await page.getByLabel(`Link ${index + 1}`, { exact: true }).fill(href);
    }
    await story.screenshot(page, 'create-notice-light');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByText('Created notice successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/notices');
    const card = noticeCard(page, 'Rust meetup this Thursday');
    await card.waitFor();
    await card.getByRole('link', { name: nina.user.userName }).waitFor();
    await expectNumberedLinks(card, links);

    await page.goto(`/profile/${nina.user._id}`);
    await page.getByRole('tab', { name: 'Notice' }).click();
    const onProfile = noticeCard(page, 'Rust meetup this Thursday');
    await onProfile.waitFor();
    await expectNumberedLinks(onProfile, links);
  });

  it('is told why a link that is not a web address is refused', async () => {
    const omar = await story.api.user();
    const page = await story.open('/createpost', { session: dark(omar) });
    await chooseNotice(page);
    await page.getByLabel('Description').fill('A notice with a bad link');
    await page.getByRole('button', { name: 'Add Link +' }).click();
    await page.getByLabel('Link 1', { exact: true }).fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByText('there was an issue while creating notice!').waitFor();
    await page.getByText('Each link must be an http(s) URL').waitFor();
    await settled(page); // the toast's entrance animation, and the page behind it
    await story.screenshot(page, 'create-notice-dark');
    expect(new URL(page.url()).pathname).toBe('/createpost');
  });

  it('posts again after a failure, and the error toast goes when the success shows', async () => {
    const lea = await story.api.user();
    const page = await story.open('/createpost', { session: lea });
    await chooseNotice(page);
    await page.getByLabel('Description').fill('Second time lucky');
    const restore = await failRequests(page, '**/api/createnotice', 'server-error');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    const failed = page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'there was an issue while creating notice!' });
    await failed.waitFor();
    // The pointer rests on the toast, so it does not close by itself: only the success may close it.
    await failed.hover();
    await restore();
    await page.getByRole('button', { name: 'Post', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Created notice successfully').waitFor();
    await failed.waitFor({ state: 'detached', timeout: 10_000 });
    const mine = await story.api.request<{ notices: unknown[] }>('GET', `/usernotices/${lea.user._id}`);
    expect(mine.notices).toHaveLength(1);
  });

  it('cannot post a notice without a description', async () => {
    const pia = await story.api.user();
    const page = await story.open('/createpost', { session: pia });
    await chooseNotice(page);
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByText('Description is required').waitFor();
    expect(new URL(page.url()).pathname).toBe('/createpost');
  });
});

describe('A member reads and deletes notices', () => {
  const story = useStory();

  it('deletes their own notice after confirming, and it stays gone', async () => {
    const quinn = await story.api.user();
    await story.api.notice(quinn, { desc: 'Quinn keeps this one' });
    await story.api.notice(quinn, { desc: 'Quinn regrets this one' });
    const page = await story.open('/notices', { session: quinn });
    const card = noticeCard(page, 'Quinn regrets this one');
    await card.getByRole('button', { name: 'Delete notice' }).click();
    await confirmDelete(page);
    await card.waitFor({ state: 'detached' });
    await noticeCard(page, 'Quinn keeps this one').waitFor();

    await page.reload();
    await noticeCard(page, 'Quinn keeps this one').waitFor();
    expect(await noticeCard(page, 'Quinn regrets this one').count()).toBe(0);
  });

  it('can back out of a deletion with the keyboard, and the notice stays', async () => {
    const wes = await story.api.user();
    await story.api.notice(wes, { desc: 'Wes almost deleted this' });
    const page = await story.open('/notices', { session: wes });
    const remove = noticeCard(page, 'Wes almost deleted this').getByRole('button', { name: 'Delete notice' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = await confirmation(page);
    // The safe choice has the focus: Enter cancels.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await noticeCard(page, 'Wes almost deleted this').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Delete notice');
  });

  it('is told when the deletion fails, and the notice stays', async () => {
    const yan = await story.api.user();
    await story.api.notice(yan, { desc: 'Yan cannot delete this yet' });
    const page = await story.open('/notices', { session: yan });
    const card = noticeCard(page, 'Yan cannot delete this yet');
    await failRequests(page, '**/api/deletenotice/**', 'network');
    await card.getByRole('button', { name: 'Delete notice' }).click();
    await confirmDelete(page);
    await page.getByText('there was an issue while deleting the notice!').waitFor();
    expect(await card.isVisible()).toBe(true);
  });

  it("does not see delete on someone else's notice", async () => {
    const rosa = await story.api.user();
    const sam = await story.api.user();
    await story.api.notice(rosa, { desc: 'Rosa owns this notice' });
    const page = await story.open('/notices', { session: sam });
    const card = noticeCard(page, 'Rosa owns this notice');
    await card.waitFor();
    expect(await card.getByRole('button', { name: 'Delete notice' }).count()).toBe(0);
  });

  it('loads more notices as the reader scrolls', async () => {
    const tess = await story.api.user();
    for (let index = 1; index <= 25; index += 1) {
      await story.api.notice(tess, { desc: `Scroll notice ${index}` });
    }
    const page = await story.open(`/profile/${tess.user._id}?tab=notices`);
    await noticeCard(page, 'Scroll notice 25').waitFor();
    expect(await noticeCard(page, 'Scroll notice 1').count()).toBe(0);
    await noticeCard(page, 'Scroll notice 6').scrollIntoViewIfNeeded();
    await noticeCard(page, 'Scroll notice 1').waitFor();
    expect(await page.getByRole('article').count()).toBe(25);
  });

  it('shows the notices page in light and dark', async () => {
    const uma = await story.api.user();
    await story.api.notice(uma, {
      desc: 'Hack night: bring a laptop and a half-finished side project.',
      links: ['https://example.com/hack-night', 'https://example.com/rsvp'],
    });
    await story.api.notice(uma, { desc: 'Office hours moved to Wednesday.' });
    const page = await story.open('/notices', { session: uma });
    await noticeCard(page, 'Office hours moved to Wednesday.').waitFor();
    expect(await seenTheme(page.getByText('Office hours moved to Wednesday.'))).toBe('light');
    await story.screenshot(page, 'notices-light');
    const darkPage = await story.open('/notices', { session: dark(uma) });
    await noticeCard(darkPage, 'Office hours moved to Wednesday.').waitFor();
    expect(await seenTheme(darkPage.getByText('Office hours moved to Wednesday.'))).toBe('dark');
    await story.screenshot(darkPage, 'notices-dark');
    const phone = await story.open('/notices', { session: uma, viewport: PHONE });
    await noticeCard(phone, 'Office hours moved to Wednesday.').waitFor();
    expect(await seenTheme(phone.getByText('Office hours moved to Wednesday.'))).toBe('light');
    expect(await scrollsSideways(phone)).toBe(false);
    await story.screenshot(phone, 'notices-phone-light');
  });
});

describe('An admin moderates notices', () => {
  const story = useStory({ ADMIN_USERNAMES: 'boss' });

  it("sees delete on someone else's notice and removes it", async () => {
    const boss = await story.api.user({ userName: 'boss' });
    expect(boss.user.role).toBe('admin');
    const vera = await story.api.user();
    await story.api.notice(vera, { desc: 'Vera posts spam' });
    const page = await story.open('/notices', { session: boss });
    const card = noticeCard(page, 'Vera posts spam');
    await card.getByRole('button', { name: 'Delete notice' }).click();
    await confirmDelete(page);
    await card.waitFor({ state: 'detached' });
    const left = await story.api.request<{ notices: unknown[] }>('GET', `/usernotices/${vera.user._id}`);
    expect(left.notices).toEqual([]);
  });
});
