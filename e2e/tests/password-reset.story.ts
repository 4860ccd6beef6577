import { TestSmtpServer } from '@techit/testkit/smtp-server';
import type { Page } from 'playwright-core';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import { PHONE, useStory } from '../support/browser';
import { OWN_ORIGIN } from '../support/app-server';

/**
 * A forgotten password, from the login page to signing in with a new one (issue 20, decision 050):
 * the server mails through a real SMTP server in this process, and the story follows the link in
 * the mail that arrives, as a person does.
 */

const SENT = "If an account uses that email, we've sent a link to reset its password. It works for an hour.";
const USED = 'This password reset link is invalid, already used or expired. Ask for a new one.';
const LINK = /(https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]{43})/;

let mailbox: TestSmtpServer;
// Started before the app server (hooks run in order), which is told where to send its mail.
beforeAll(async () => {
  mailbox = await TestSmtpServer.start();
});
afterAll(async () => {
  await mailbox?.close();
});

/** The reset link of the first mail to `email` after the first `since`, as the mail's text shows it. */
async function linkInMail(email: string, since: number): Promise<string> {
  const mail = await mailbox.mailTo(email, since);
  const link = LINK.exec(mail.text)?.[1];
  if (!link) throw new Error(`No reset link in the mail:\n${mail.text}`);
  return link;
}

/** Presses Tab until `name` (the focused element's accessible text or id) has the focus. */
async function tabTo(page: Page, wanted: (active: { text: string; id: string }) => boolean): Promise<void> {
  for (let presses = 0; presses < 20; presses += 1) {
    await page.keyboard.press('Tab');
    const active = await page.evaluate(() => ({
      text: document.activeElement?.textContent?.trim() ?? '',
      id: document.activeElement?.id ?? '',
    }));
    if (wanted(active)) return;
  }
  throw new Error('Tab never reached the element');
}

async function signIn(page: Page, userName: string, password: string): Promise<void> {
  await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
  await page.getByLabel('Username').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('A member who forgot their password', () => {
  // PUBLIC_URL is required with SMTP_URL: the server's own origin, where the mailed link leads.
  const story = useStory(() => ({
    SMTP_URL: mailbox.url,
    MAIL_FROM: 'TechIt <no-reply@techit.test>',
    PUBLIC_URL: OWN_ORIGIN,
  }));

  it('resets a forgotten password from the login page', async () => {
    const ada = await story.api.user({ userName: 'ada_resets', email: 'ada.resets@example.com' });
    const page = await story.open('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await page.title()).toBe('Forgot password · TechIt');
    await settled(page);
    await expectNoSeriousViolations(page, 'forgot password');

    const since = mailbox.mails.length;
    await page.getByLabel('Email').fill('ada.resets@example.com');
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page.getByRole('status').filter({ hasText: SENT }).waitFor();
    const link = await linkInMail('ada.resets@example.com', since);
    expect(new URL(link).origin).toBe(story.server.url);

    // The link from the mail, in a browser of its own (the mail app opens it).
    const reset = await story.open(link);
    await reset.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await reset.title()).toBe('Choose a new password · TechIt');
    await settled(reset);
    await expectNoSeriousViolations(reset, 'reset password');
    // Sign-up's rules, said before anything is sent; and the two must agree.
    await reset.getByLabel('New password', { exact: true }).fill('short');
    await reset.getByLabel('Confirm new password').fill('shorter');
    await reset.getByRole('button', { name: 'Set new password' }).click();
    await reset.getByRole('alert').filter({ hasText: 'The password needs 8 to 128 characters.' }).waitFor();
    await reset.getByRole('alert').filter({ hasText: 'The two passwords differ' }).waitFor();

    await reset.getByLabel('New password', { exact: true }).fill('a fresh start at last');
    await reset.getByLabel('Confirm new password').fill('a fresh start at last');
    await reset.getByRole('button', { name: 'Set new password' }).click();
    await reset.getByText('Your password has been changed. Sign in with the new one.').waitFor();
    await reset.waitForURL('**/login');

    await signIn(reset, 'ada_resets', ada.password);
    await reset.getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    await signIn(reset, 'ada_resets', 'a fresh start at last');
    await reset.getByText('Signed in successfully').waitFor();
    await reset.waitForURL((url) => url.pathname === '/');

    // The same link again: used up. The page says so, and where to ask for a new one.
    const again = await story.open(link);
    await again.getByLabel('New password', { exact: true }).fill('yet another password');
    await again.getByLabel('Confirm new password').fill('yet another password');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByRole('alert').filter({ hasText: USED }).waitFor();
    await again.getByRole('link', { name: 'Ask for a new link' }).click();
    await again.getByRole('heading', { name: 'Reset your password' }).waitFor();
  });

  it('says the same for an email no account uses, and mails nothing', async () => {
    const page = await story.open('/forgot-password');
    const since = mailbox.mails.length;
    await page.getByLabel('Email').fill('nobody.here@example.com');
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page.getByRole('status').filter({ hasText: SENT }).waitFor();
    // A known address asked for after it is mailed; the unknown one before it never is.
    await story.api.user({ userName: 'known_after', email: 'known.after@example.com' });
    const other = await story.open('/forgot-password');
    await other.getByLabel('Email').fill('known.after@example.com');
    await other.getByRole('button', { name: 'Send me a reset link' }).click();
    await linkInMail('known.after@example.com', since);
    expect(mailbox.mails.length - since).toBe(1);
  });

  it('shows a link without its token, or with an unknown one, as refused, with a way to ask again', async () => {
    const page = await story.open('/reset-password');
    await page.getByRole('alert').filter({ hasText: USED }).waitFor();
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await settled(page);
    await expectNoSeriousViolations(page, 'reset password without a token');
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();

    const unknown = await story.open(`/reset-password?token=${'x'.repeat(43)}`);
    await unknown.getByLabel('New password', { exact: true }).fill('a perfectly fine one');
    await unknown.getByLabel('Confirm new password').fill('a perfectly fine one');
    await unknown.getByRole('button', { name: 'Set new password' }).click();
    await unknown.getByRole('alert').filter({ hasText: USED }).waitFor();
  });

  it('signs this browser out when it was signed in: the reset ended every session', async () => {
    const sam = await story.api.user({ userName: 'sam_signed_in', email: 'sam.signed@example.com' });
    const since = mailbox.mails.length;
    await story.api.request('POST', '/password-reset', { email: 'sam.signed@example.com' });
    const link = await linkInMail('sam.signed@example.com', since);
    const page = await story.open(link, { session: sam });
    await page.getByLabel('New password', { exact: true }).fill('signed in while resetting');
    await page.getByLabel('Confirm new password').fill('signed in while resetting');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Your password has been changed. Sign in with the new one.').waitFor();
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
    // Home as a visitor: no request with the ended session, so no "Please login again".
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'For you' }).waitFor();
    await settled(page);
    expect(await page.getByRole('link', { name: /^Your profile/ }).count()).toBe(0);
    expect(await page.getByText('Please login again').count()).toBe(0);
  });

  it('works from the keyboard alone, and fits a phone', async () => {
    await story.api.user({ userName: 'kay_keys', email: 'kay.keys@example.com' });
    const page = await story.open('/login', { viewport: PHONE });
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await tabTo(page, (active) => active.text === 'Forgot password?');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await tabTo(page, (active) => active.id === 'forgot-email');
    const since = mailbox.mails.length;
    await page.keyboard.type('kay.keys@example.com');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: SENT }).waitFor();
    await settled(page);
    await story.screenshot(page, 'forgot-password-sent-phone');
    const link = await linkInMail('kay.keys@example.com', since);

    const reset = await story.open(link, { viewport: PHONE });
    await reset.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await tabTo(reset, (active) => active.id === 'reset-password');
    await reset.keyboard.type('typed without a mouse');
    await tabTo(reset, (active) => active.id === 'reset-confirm');
    await reset.keyboard.type('typed without a mouse');
    await settled(reset);
    await story.screenshot(reset, 'reset-password-phone');
    expect(await reset.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await reset.keyboard.press('Enter');
    await reset.getByText('Your password has been changed. Sign in with the new one.').waitFor();
    await reset.waitForURL('**/login');
    const signedIn = await story.api.request<{ user: { userName: string } }>('POST', '/signin', {
      userName: 'kay_keys',
      password: 'typed without a mouse',
    });
    expect(signedIn.user.userName).toBe('kay_keys');
  });
});

describe('Asking for reset links too often', () => {
  // The real limits (3 an hour per email asked for); no mail configured: the answer is the same.
  const story = useStory({ RATE_LIMITS: 'on' });

  it('shows the rate limit’s reason, with how long to wait, above the form', async () => {
    for (let asked = 0; asked < 3; asked += 1) {
      await story.api.request('POST', '/password-reset', { email: 'flooded@example.com' });
    }
    const page = await story.open('/forgot-password');
    await page.getByLabel('Email').fill('flooded@example.com');
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Too many requests; please try again in \d+ seconds?$/ })
      .waitFor();
    // The form stays, with what was typed; the confirmation is not shown.
    expect(await page.getByLabel('Email').inputValue()).toBe('flooded@example.com');
    expect(await page.getByText(SENT).count()).toBe(0);
    await settled(page);
    await expectNoSeriousViolations(page, 'forgot password, rate limited');
    await story.screenshot(page, 'forgot-password-rate-limited');
  });
});
