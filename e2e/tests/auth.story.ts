import type { Me } from '@techit/contract/api-types';
import { imageVariant } from '@techit/contract/image-variants';
import type { Page } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { settled } from '../support/accessibility';
import { PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';
import { pngFile } from '../support/images';

async function storedSession(page: Page): Promise<{ token: string | null; user: Me | null }> {
  return page.evaluate(() => ({
    token: localStorage.getItem('jwt'),
    user: JSON.parse(localStorage.getItem('techit-user') ?? 'null') as Me | null,
  }));
}

describe('A newcomer creates an account', () => {
  const story = useStory();

  it('signs up with a picture, is sent to the login page, and logs in to see their picture', async () => {
    const page = await story.open('/signup');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await page.title()).toBe('Create an account · TechIt');
    await page.getByLabel('Username').fill('grace');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Password').fill('compilers rule');
    await page.getByLabel('Choose a picture').setInputFiles(await pngFile('grace.png'));
    await page.getByAltText('Preview of the chosen image').waitFor();
    await story.screenshot(page, 'signup-light');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByText('Signed up successfully').waitFor();
    await page.waitForURL('**/login');
    // The URL changes a moment before the login form replaces the signup form, whose fields have
    // the same labels: typing before the heading shows fills the form that is about to go.
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();

    await page.getByLabel('Username').fill('grace');
    await page.getByLabel('Password').fill('compilers rule');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Signed in successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    const { token, user } = await storedSession(page);
    expect(token).toEqual(expect.any(String));
    expect(user).toMatchObject({ userName: 'grace', email: 'grace@example.com' });
    expect(user?.pic).toMatch(/^\/uploads\/[0-9a-f]{24}-\d+x\d+\.webp$/);
    const profileLink = page.getByRole('link', { name: 'Your profile: grace' });
    await profileLink.waitFor();
    // Avatars show the square avatar-size copy of the stored picture.
    expect(await profileLink.locator('img').getAttribute('src')).toBe(imageVariant(user!.pic, 'avatar').src);
  });

  it('shows the server’s reason when the name is taken, and keeps what was typed', async () => {
    await story.api.user({ userName: 'taken_name' });
    const page = await story.open('/signup');
    await page.getByLabel('Username').fill('Taken_Name');
    await page.getByLabel('Email').fill('someone.new@example.com');
    await page.getByLabel('Password').fill('long enough');
    await page.getByRole('button', { name: 'Create account' }).click();
    // Said next to the Username field (issue 15, 3.9), in a sentence.
    await page.getByRole('alert').filter({ hasText: 'That user name is taken; choose another.' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('someone.new@example.com');
  });

  it('moves between the two forms with the switch link, and goes home with the Home button', async () => {
    const page = await story.open('/signup');
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});

describe('A member logs in and out', () => {
  const story = useStory();

  it('asks only for a username and password (no email field) on the login page', async () => {
    const page = await story.open('/login');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    expect(await page.locator('input').count()).toBe(2);
    await story.screenshot(page, 'login-light');
  });

  it('sees the server’s error for a wrong password', async () => {
    const member = await story.api.user();
    const page = await story.open('/login');
    await page.getByLabel('Username').fill(member.user.userName);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    expect((await storedSession(page)).token).toBeNull();
  });

  it('stays logged in across a reload, and logging out clears the session and opens the login page', async () => {
    const member = await story.api.user();
    const page = await story.open('/login');
    await page.getByLabel('Username').fill(member.user.email);
    await page.getByLabel('Password').fill(member.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/');

    await page.reload();
    await page.getByRole('link', { name: `Your profile: ${member.user.userName}` }).waitFor();

    await page.getByRole('button', { name: 'More' }).click();
    await (await settledMenuItem(page, 'Logout')).click();
    await page.waitForURL('**/login');
    expect(await storedSession(page)).toEqual({ token: null, user: null });
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).first().waitFor();
    expect(await page.getByRole('link', { name: /Your profile/ }).count()).toBe(0);
  });
});

describe('A member signs out of all devices', () => {
  const story = useStory();

  async function logIn(page: Page, member: Session): Promise<void> {
    await page.getByLabel('Username').fill(member.user.userName);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  }

  it('ends the session in every browser: the other one is sent to log in at its next action', async () => {
    const member = await story.api.user();
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Still there?' });
    const laptop = await story.open('/login');
    const phone = await story.open('/login', { viewport: PHONE });
    await logIn(laptop, member);
    await logIn(phone, member);

    await laptop.getByRole('button', { name: 'More' }).click();
    await (await settledMenuItem(laptop, 'Sign out of all devices')).click();
    await laptop.getByText('Signed out of all devices').waitFor();
    await laptop.waitForURL('**/login');
    expect(await storedSession(laptop)).toEqual({ token: null, user: null });

    // The phone learns it at its next page: a member's page asks for their unread notifications
    // (the bell), with the token the server no longer takes.
    const refused = phone.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/notifications/unread-count' && response.status() === 401,
    );
    await phone.goto(`/posts/${post._id}`);
    await refused;
    const ended = phone.locator('.ant-notification-notice').filter({ hasText: 'Your session has ended.' });
    await ended.waitFor();
    // The member reaches for the toast: with the pointer on it, it stays past its 5 s. Without
    // that, a loaded machine spent those 5 s settling the page and the link was gone (CI, stop 28).
    await ended.hover();
    expect(await storedSession(phone)).toEqual({ token: null, user: null });
    // The toast slides in while the page behind it is still settling: click its link once still.
    await settled(phone);
    await ended.getByRole('link', { name: 'Login' }).click();
    await phone.waitForURL('**/login');
    await logIn(phone, member);
    expect((await storedSession(phone)).user?._id).toBe(member.user._id);
  });
});
