import { scrollsSideways, seenTheme } from '../support/appearance';
import { PHONE, useStory } from '../support/browser';

const SCREENS = [
  { name: 'login', path: '/login', ready: 'Login to your account' },
  { name: 'signup', path: '/signup', ready: 'Create an account' },
  { name: 'forgot-password', path: '/forgot-password', ready: 'Reset your password' },
  // A token of the right shape: the form shows (whether the API takes it is known on submit).
  { name: 'reset-password', path: `/reset-password?token=${'t'.repeat(43)}`, ready: 'Confirm new password' },
  { name: 'reset-password-no-token', path: '/reset-password', ready: 'This password reset link is invalid' },
  { name: 'not-found', path: '/nowhere', ready: "This page doesn't exist!" },
];

describe('The entry screens look right in both themes and on a phone', () => {
  const story = useStory();

  it.each(SCREENS)('renders $name in light, dark and phone size', async ({ name, path, ready }) => {
    for (const theme of ['light', 'dark'] as const) {
      for (const device of ['desktop', 'phone'] as const) {
        const page = await story.open('/api/health', device === 'phone' ? { viewport: PHONE } : {});
        await page.evaluate((value) => localStorage.setItem('techit-theme', value), theme);
        await page.goto(path);
        await page.getByText(ready).first().waitFor();
        expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe(theme);
        // What the screenshot shows: the screen in that theme, and nothing off the side of a phone.
        expect(await seenTheme(page.getByText(ready).first())).toBe(theme);
        expect(await scrollsSideways(page)).toBe(false);
        await story.screenshot(page, `${name}-${theme}${device === 'phone' ? '-phone' : ''}`);
      }
    }
  });
});
