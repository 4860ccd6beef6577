import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { PHONE, useStory } from '../support/browser';
import { settledDialog } from '../support/dialogs';

function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-notification-notice').filter({ hasText: text });
}

/** The settings page, loaded: its lists have answered. */
async function settingsReady(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByText('You block nobody.').waitFor();
}

describe('The settings page (issue 20)', () => {
  const story = useStory();

  it('changes the password: a wrong current one is said at its field; then this browser stays signed in and another one is signed out', async () => {
    const member = await story.api.user({ userName: 'settings_pw' });
    // Another browser with the same session, open before the change.
    const elsewhere = await story.open('/', { session: member });
    await elsewhere.getByRole('link', { name: 'Your profile: settings_pw' }).waitFor();

    const page = await story.open('/settings', { session: member });
    await settingsReady(page);
    await page.getByLabel('Current password').fill('not-the-password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Confirm new password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The current password is wrong' }).waitFor();

    await page.getByLabel('Current password').fill(member.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password changed. Other sessions have been signed out.').waitFor();
    expect(await page.getByLabel('Current password').inputValue()).toBe('');

    // This browser goes on with the new token: a reload still shows the account.
    await page.reload();
    await settingsReady(page);
    await page.getByRole('link', { name: 'Your profile: settings_pw' }).waitFor();

    // The other browser's next request that needs the session is refused: it is signed out.
    await elsewhere.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookmarks' }).click();
    await toast(elsewhere, 'Please login again').waitFor();
    await elsewhere.getByRole('link', { name: 'Log in' }).waitFor();

    // The new password signs in; the old one no longer does.
    await story.api.request('POST', '/signin', { userName: 'settings_pw', password: 'a brand new secret' });
    await expect(
      story.api.request('POST', '/signin', { userName: 'settings_pw', password: member.password }),
    ).rejects.toThrow(/answered 4\d\d/);
  });

  it('changes the email: the page and the navigation show the new address', async () => {
    const member = await story.api.user({ userName: 'settings_mail' });
    const page = await story.open('/settings', { session: member });
    await settingsReady(page);
    await page.getByLabel('New email').fill('fresh.address@example.com');
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Change email' }).click();
    await toast(page, 'Your email is now fresh.address@example.com').waitFor();
    await page.locator('.settings-current-email').filter({ hasText: 'fresh.address@example.com' }).waitFor();
    // The navigation shows it too (cut short when long).
    await page
      .locator('.left-nav-profile-email')
      .filter({ hasText: /^fresh\./ })
      .waitFor();
    // Sign-in takes the address too: the new one is the account's.
    const signedIn = await story.api.request<{ user: { email: string } }>('POST', '/signin', {
      userName: 'fresh.address@example.com',
      password: member.password,
    });
    expect(signedIn.user.email).toBe('fresh.address@example.com');
  });

  it('downloads my data as a ZIP file, once a day', async () => {
    const member = await story.api.user({ userName: 'settings_zip' });
    await story.api.post(member, { title: 'Something to export', desc: 'Words' });
    const page = await story.open('/settings', { session: member });
    await settingsReady(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await readFile((await file.path()) ?? '');
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    // A second one the same day says when it can be asked for again.
    await page.getByRole('button', { name: 'Download my data' }).click();
    await toast(page, /You can download your data once a day — try again (after|tomorrow)/).waitFor();
  });

  it('deletes the account keeping its posts, shown as by [deleted user]; this browser is signed out', async () => {
    const leaver = await story.api.user({ userName: 'settings_leaver' });
    const post = await story.api.post(leaver, { title: 'A post that stays', desc: 'Even after I go' });
    const page = await story.open('/settings', { session: leaver, viewport: PHONE });
    await settingsReady(page);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = await settledDialog(page, 'Delete your account?');
    await dialog.getByText('Keep them, shown as by [deleted user]').click();
    await dialog.getByLabel('Your password').fill('wrong password here');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'wrong' }).waitFor();
    await dialog.getByLabel('Your password').fill(leaver.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await toast(page, 'Your account has been deleted').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();

    await page.goto(`/posts/${post._id}`);
    await page.getByRole('heading', { name: 'A post that stays' }).waitFor();
    await page.getByText('[deleted user]').first().waitFor();
  });
});
