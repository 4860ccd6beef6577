import { useStory } from '../support/browser';

describe('A visitor opens TechIt', () => {
  const story = useStory();

  it('sees the login page with its title, welcome line and Home button', async () => {
    const page = await story.open('/login');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    expect(await page.getByRole('button', { name: 'Log in' }).isVisible()).toBe(true);
    expect(await page.getByText('Welcome to TechIt').isVisible()).toBe(true);
    expect(await page.title()).toBe('Log in · TechIt');
    await story.screenshot(page, 'login-light');
  });
});
