import type { Post } from '@techit/contract/api-types';
import type { Locator, Page } from 'playwright-core';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import type { Session } from '../support/api-helper';
import { scrollsSideways } from '../support/appearance';
import { PHONE, useStory } from '../support/browser';
import { settledDialog } from '../support/dialogs';

/** The card (or the post's own page) whose heading is `title`. */
function card(page: Page, title: string): Locator {
  return page.getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** The queue's card of a reported target, by the excerpt its heading shows. */
function queued(page: Page, excerpt: string): Locator {
  return page
    .getByRole('list', { name: 'Open reports' })
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: excerpt }) });
}

/** Waits until the feed shows its cards, then answers their titles. */
async function feedTitles(page: Page, mustShow: string): Promise<string[]> {
  await card(page, mustShow).waitFor();
  return page.getByRole('feed').getByRole('article').getByRole('heading', { level: 2 }).allInnerTexts();
}

// 'boss' is an admin by configuration (ADMIN_USERNAMES); a moderator is made by boss through the API.
describe('Moderation (issue 20)', () => {
  const story = useStory({ ADMIN_USERNAMES: 'boss' });
  let boss: Session;
  let moderator: Session;

  beforeAll(async () => {
    boss = await story.api.user({ userName: 'boss' });
    moderator = await story.api.user({ userName: 'modmo' });
    await story.api.setRole(boss, moderator.user._id, 'moderator');
    // The stored copy the web app starts from says so too, as the next sign-in's would.
    moderator.user = { ...moderator.user, role: 'moderator' };
  });

  it('a member reports a post, a moderator removes it from the queue, and it is gone for everyone but its author', async () => {
    const author = await story.api.user({ userName: 'spammer' });
    const spam: Post = await story.api.post(author, { title: 'Cheap watches here', desc: 'Click my link' });
    await story.api.post(author, { title: 'An honest post', desc: 'Nothing to see' });
    const reporter = await story.api.user();
    const other = await story.api.user();

    // The member reports it from the post's page.
    const page = await story.open(`/posts/${spam._id}`, { session: reporter });
    await page.getByRole('button', { name: 'Report post: Cheap watches here' }).click();
    const dialog = await settledDialog(page, 'Report this post');
    // No reason chosen: said at the reasons, nothing sent.
    let reports = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/reports') reports += 1;
    });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Choose a reason' }).waitFor();
    expect(reports).toBe(0);
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog.getByLabel('Anything the moderators should know (optional)').fill('A link farm');
    await story.screenshot(page, 'moderation-report-dialog');
    const sent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/reports');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    expect((await sent).status()).toBe(201);
    await page.getByText('Thanks — the moderators will take a look').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The moderator finds it in the queue, with its reason and note, and removes it with a reason.
    const admin = await story.open('/', { session: moderator });
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await admin.waitForURL('**/admin');
    await admin.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    const group = queued(admin, 'Cheap watches here');
    await group.waitFor();
    await group.getByText('1 report').waitFor();
    await group.getByRole('list', { name: 'Reasons' }).getByText('Spam × 1').waitFor();
    await group.getByRole('list', { name: 'Notes from the reporters' }).getByText('A link farm').waitFor();
    expect(await group.getByRole('link', { name: 'spammer' }).getAttribute('href')).toBe(`/profile/${author.user._id}`);
    await story.screenshot(admin, 'moderation-admin-reports');
    // No reason: refused here, nothing sent.
    await group.getByRole('button', { name: 'Remove' }).click();
    await group.getByText('Say why: the reason is shown in the moderation log.').waitFor();
    await group.getByLabel('Reason (shown in the public log)').fill('Spam: a link farm');
    const resolved = admin.waitForResponse((response) => response.url().endsWith('/resolve'));
    await group.getByRole('button', { name: 'Remove' }).click();
    expect((await resolved).status()).toBe(200);
    // It leaves the open list at once.
    await group.waitFor({ state: 'detached' });

    // A visitor: not in the feed; its page says it was removed.
    const visitor = await story.open('/');
    expect(await feedTitles(visitor, 'An honest post')).not.toContain('Cheap watches here');
    await visitor.goto(`/posts/${spam._id}`);
    await visitor.getByText('This post was removed by the moderators').waitFor();
    expect(await visitor.getByText('Click my link').count()).toBe(0);
    await story.screenshot(visitor, 'moderation-removed-post');

    // Another member: the same.
    const otherPage = await story.open('/', { session: other });
    expect(await feedTitles(otherPage, 'An honest post')).not.toContain('Cheap watches here');
    await otherPage.goto(`/posts/${spam._id}`);
    await otherPage.getByText('This post was removed by the moderators').waitFor();

    // Its author still reads it whole, marked as removed.
    const authorPage = await story.open(`/posts/${spam._id}`, { session: author });
    const own = card(authorPage, 'Cheap watches here');
    await own.getByText('Removed by the moderators').waitFor();
    await own.getByText('Click my link').waitFor();
    await story.screenshot(authorPage, 'moderation-removed-post-author');

    // The public log shows the action and its reason, without the moderator's name to a visitor.
    await visitor.goto('/moderation');
    await visitor.getByRole('heading', { level: 1, name: 'Moderation log' }).waitFor();
    const entry = visitor.getByRole('list', { name: 'Moderation log' }).getByRole('listitem').first();
    await entry.getByText('Removed').waitFor();
    await entry.getByText('Spam: a link farm').waitFor();
    expect(await visitor.getByText('modmo').count()).toBe(0);
    await expectNoSeriousViolations(visitor, 'the moderation log (visitor)');
    await story.screenshot(visitor, 'moderation-log-visitor');
    // A moderator sees who did it.
    await admin.goto('/admin?tab=log');
    await admin.getByRole('list', { name: 'Moderation log' }).getByRole('link', { name: 'modmo' }).first().waitFor();
  });

  it('a removed comment stays in its thread as "removed by the moderators", its reply kept', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'A thread with a rude comment' });
    const rude = await story.api.user({ userName: 'rudeone' });
    await story.api.comment(rude, post._id, 'You are all fools');
    const rudeId = await story.api.commentId(post._id, 'You are all fools');
    await story.api.reply(author, post._id, rudeId, 'Please be kind');
    await story.api.report(author, { targetKind: 'comment', targetId: rudeId, reason: 'harassment' });
    await story.api.resolve(moderator, 'comment', rudeId, { action: 'remove', reason: 'Name-calling' });

    const page = await story.open(`/posts/${post._id}`);
    const removed = page.locator(`#comment-${rudeId}`);
    // In words, not as an author: no link, no "[removed by the moderators]" name.
    await removed.getByText('removed by the moderators', { exact: true }).waitFor();
    expect(await removed.getByRole('link', { name: 'rudeone' }).count()).toBe(0);
    expect(await removed.getByRole('link', { name: '[removed by the moderators]' }).count()).toBe(0);
    expect(await page.getByText('You are all fools').count()).toBe(0);
    await removed.getByText('Please be kind').waitFor();
    await story.screenshot(page, 'moderation-removed-comment');
  });

  it('a removed notice stays in the list as "removed by the moderators"; its author sees it marked', async () => {
    const author = await story.api.user({ userName: 'adnotice' });
    const notice = await story.api.notice(author, { desc: 'Buy my course today' });
    const reader = await story.api.user();
    await story.api.report(reader, { targetKind: 'notice', targetId: notice._id, reason: 'spam' });
    await story.api.resolve(moderator, 'notice', notice._id, { action: 'remove', reason: 'Advertising' });

    const visitor = await story.open('/notices');
    const placeholder = visitor.getByRole('article', { name: 'Notice removed by the moderators' }).first();
    await placeholder.getByText('removed by the moderators', { exact: true }).waitFor();
    expect(await visitor.getByText('Buy my course today').count()).toBe(0);
    expect(await visitor.getByRole('link', { name: 'adnotice' }).count()).toBe(0);

    const own = await story.open('/notices', { session: author });
    const mine = own.getByRole('article', { name: 'Notice by adnotice' }).filter({ hasText: 'Buy my course today' });
    await mine.getByText('Removed by the moderators').waitFor();
    // Nobody reports their own notice; another member can report one.
    expect(await mine.getByRole('button', { name: /^Report notice/ }).count()).toBe(0);
  });

  it('a member or a visitor opening /admin gets the not-found screen, and no Admin in the navigation', async () => {
    const member = await story.api.user();
    const page = await story.open('/admin', { session: member });
    await page.getByText("This page doesn't exist!").waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    const visitor = await story.open('/admin');
    await visitor.getByText("This page doesn't exist!").waitFor();
    // Nor do they get the queue from the API.
    expect(
      await page.evaluate(
        async (token) => (await fetch('/api/reports', { headers: { Authorization: `Bearer ${token}` } })).status,
        member.token,
      ),
    ).toBe(403);
  });

  it('a member made a moderator while signed in finds the admin area on their next page, and loses it when demoted', async () => {
    const member = await story.api.user();
    const page = await story.open('/', { session: member });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Feed' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);

    // Promoted by an admin elsewhere: no new sign-in, the next page load knows.
    await story.api.setRole(boss, member.user._id, 'moderator');
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin' }).waitFor();
    await nav.getByRole('link', { name: 'Admin' }).waitFor();

    await story.api.setRole(boss, member.user._id, 'user');
    await page.goto('/admin');
    await page.getByText("This page doesn't exist!").waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
  });

  it('works the queue on a phone, in the dark theme, without sideways scrolling', async () => {
    const author = await story.api.user({ userName: 'phonetroll' });
    const post = await story.api.post(author, {
      title: 'A_very_long_reported_title_that_must_wrap_on_a_phone_without_pushing_anything',
    });
    const reporter = await story.api.user();
    await story.api.report(reporter, {
      targetKind: 'post',
      targetId: post._id,
      reason: 'off-topic',
      note: 'Not about tech',
    });
    await story.api.report(reporter, { targetKind: 'user', targetId: author.user._id, reason: 'spam' });
    const dark = { ...moderator, user: await story.api.theme(moderator, 'dark') };

    const page = await story.open('/admin', { session: dark, viewport: PHONE });
    const group = queued(page, post.title);
    await group.waitFor();
    await settled(page);
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoSeriousViolations(page, 'the report queue (phone, dark)');
    await story.screenshot(page, 'moderation-admin-reports-phone-dark');
    // A reported user is named by the heading, which leads to their profile (not "by" themselves).
    const reportedUser = queued(page, 'phonetroll');
    expect(await reportedUser.getByRole('heading').getByRole('link').getAttribute('href')).toBe(
      `/profile/${author.user._id}`,
    );
    expect(await reportedUser.getByText(/^by /).count()).toBe(0);

    // The phone menu has Admin.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).waitFor();
    await page.keyboard.press('Escape');

    await group.getByLabel('Reason (shown in the public log)').fill('Off-topic but harmless');
    await group.getByRole('button', { name: 'Dismiss' }).click();
    await group.waitFor({ state: 'detached' });

    // The users tab and the log tab, on the phone too.
    await page.getByRole('tab', { name: 'Users' }).click();
    const users = page.getByRole('list', { name: 'Users' });
    await users.getByRole('article', { name: 'phonetroll' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await story.screenshot(page, 'moderation-admin-users-phone-dark');
    await page.getByRole('tab', { name: 'Log' }).click();
    await page.getByRole('list', { name: 'Moderation log' }).getByText('Off-topic but harmless').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await story.screenshot(page, 'moderation-admin-log-phone-dark');
    await story.api.theme(moderator, 'light');
  });

  it('an admin finds a user, makes them a moderator, suspends another and gets a reset link to pass on', async () => {
    const helper = await story.api.user({ userName: 'helpful_hannah' });
    const troll = await story.api.user({ userName: 'trolly_tom' });
    const page = await story.open('/admin?tab=users', { session: boss });
    await page.getByLabel('Search users by name').fill('HANNAH');
    const hannah = page.getByRole('list', { name: 'Users' }).getByRole('article', { name: 'helpful_hannah' });
    await hannah.waitFor();
    await page
      .getByRole('list', { name: 'Users' })
      .getByRole('article', { name: 'trolly_tom' })
      .waitFor({ state: 'detached' });
    await hannah.getByRole('combobox', { name: 'Role' }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Moderator' }).click();
    await page.getByText('helpful_hannah is now: Moderator').waitFor();
    expect((await story.api.request<{ user: { role: string } }>('GET', `/user/${helper.user._id}`)).user.role).toBe(
      'moderator',
    );

    await page.getByLabel('Search users by name').fill('trolly');
    const tom = page.getByRole('list', { name: 'Users' }).getByRole('article', { name: 'trolly_tom' });
    await tom.getByRole('button', { name: 'Suspend' }).click();
    const dialog = await settledDialog(page, 'Suspend trolly_tom');
    await dialog.getByLabel('Reason (shown in the public log)').fill('Repeated trolling');
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await tom.getByText('Suspended indefinitely').waitFor();
    await story.screenshot(page, 'moderation-admin-users');
    const signIn = await fetch(`${story.server.url}/api/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userName: 'trolly_tom', password: troll.password }),
    });
    expect(signIn.status).toBe(403);

    await tom.getByRole('button', { name: 'Reset password link' }).click();
    const link = await settledDialog(page, 'Password reset link for trolly_tom');
    expect(await link.getByText(/\/reset-password\?token=/).count()).toBe(1);
  });

  it('reports a comment from the keyboard alone; Escape closes the dialog and gives focus back', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Keyboard thread' });
    const commenter = await story.api.user({ userName: 'keyboarded' });
    await story.api.comment(commenter, post._id, 'Off-topic ramble');
    const reader = await story.api.user();
    const page = await story.open(`/posts/${post._id}`, { session: reader });
    const button = page.getByRole('button', { name: 'Report comment: comment by keyboarded' });
    await button.focus();
    await page.keyboard.press('Enter');
    let dialog = await settledDialog(page, 'Report this comment');
    // Escape: closed, and focus is back on the button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Report comment: comment by keyboarded',
    );

    await page.keyboard.press('Enter');
    dialog = await settledDialog(page, 'Report this comment');
    // Focus starts on the reasons; the arrows choose one.
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === 'radio');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await dialog.getByRole('radio', { name: 'Off-topic' }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Nothing to do with the post');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send report');
    const sent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/reports');
    await page.keyboard.press('Enter');
    const reply = (await (await sent).json()) as { report: { reason: string; note: string } };
    expect(reply.report).toMatchObject({ reason: 'off-topic', note: 'Nothing to do with the post' });
    await page.getByText('Thanks — the moderators will take a look').waitFor();
  });

  it('a visitor pressing Report is asked to log in; nobody gets Report on their own post', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Mine to keep' });
    const visitor = await story.open(`/posts/${post._id}`);
    await visitor.getByRole('button', { name: 'Report post: Mine to keep' }).click();
    await visitor.getByText('Login Required!').waitFor();
    await visitor.getByText('Please login to report a post').waitFor();
    expect(await visitor.getByRole('dialog').count()).toBe(0);
    const own = await story.open(`/posts/${post._id}`, { session: author });
    await card(own, 'Mine to keep').waitFor();
    expect(await own.getByRole('button', { name: /^Report post/ }).count()).toBe(0);
  });
});
