import { DESKTOP, PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';

describe('A visitor is shown how to log in or sign up', () => {
  const story = useStory();

  it('sees Log in and Sign up in the left bar of a large screen, each a link to its page', async () => {
    const page = await story.open('/', { viewport: DESKTOP });
    const bar = page.getByRole('navigation', { name: 'Main' });
    const logIn = bar.getByRole('link', { name: 'Log in', exact: true });
    const signUp = bar.getByRole('link', { name: 'Sign up', exact: true });
    await logIn.waitFor();
    expect(await logIn.isVisible()).toBe(true);
    expect(await signUp.isVisible()).toBe(true);
    expect(await logIn.getAttribute('href')).toBe('/login');
    expect(await signUp.getAttribute('href')).toBe('/signup');
    await signUp.click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.goBack();
    await bar.getByRole('link', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
  });

  it('no longer sees them once logged in', async () => {
    const member = await story.api.user();
    const page = await story.open('/', { session: member, viewport: DESKTOP });
    const bar = page.getByRole('navigation', { name: 'Main' });
    await bar.getByRole('link', { name: `Your profile: ${member.user.userName}` }).waitFor();
    expect(await bar.getByRole('link', { name: 'Log in', exact: true }).count()).toBe(0);
    expect(await bar.getByRole('link', { name: 'Sign up', exact: true }).count()).toBe(0);
  });

  it.each([
    ['a large screen', DESKTOP],
    ['a phone', PHONE],
  ] as const)(
    'choosing the Following feed on %s, is invited to log in rather than told to follow more users',
    async (_, viewport) => {
      const page = await story.open('/', { viewport });
      if (viewport === PHONE) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await (await settledMenuItem(page, 'Following Feed')).click();
      } else {
        await page.goto('/?feed=following');
      }
      await page.waitForURL('**/?feed=following');
      const main = page.getByRole('main');
      await main.getByText('Log in to see your Following feed').waitFor();
      expect(await main.getByText('Try Following more users', { exact: false }).count()).toBe(0);
      await main.getByRole('link', { name: 'Log in', exact: true }).click();
      await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    },
  );
});
