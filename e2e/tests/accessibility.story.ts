import type { Theme } from '@techit/contract/enums';
import type { Page } from 'playwright-core';
import { describeViolations, seriousViolations, settled } from '../support/accessibility';
import type { Session } from '../support/api-helper';
import { DESKTOP, PHONE, useStory } from '../support/browser';
import { settledConfirm, settledDialog, settledMenuItem } from '../support/dialogs';

interface Screen {
  name: string;
  path: string;
  /** Something only the finished screen shows. */
  ready: (page: Page) => Promise<unknown>;
  /** What a person does on the screen before it is checked (opens a menu, a dialog). */
  act?: (page: Page) => Promise<unknown>;
  /** Only at this width (menus that exist in one of the two bars). */
  only?: 'desktop' | 'phone';
}

describe('Every screen is usable with assistive technology, in both themes', () => {
  const story = useStory();

  let alice: Session;
  let bob: Session;
  let postId: string;

  beforeAll(async () => {
    alice = await story.api.user({ userName: 'alice_a11y' });
    bob = await story.api.user({ userName: 'bob_a11y' });
    const post = await story.api.post(alice, {
      title: 'Reading axe reports',
      desc: 'What serious and critical mean',
      category: 'Doubt',
      link1: 'https://github.com/dequelabs/axe-core',
      link2: 'https://www.w3.org/WAI/',
    });
    await story.api.post(bob, { title: 'Contrast by numbers', desc: '4.5:1 for small text' });
    await story.api.like(bob, post._id);
    await story.api.comment(bob, post._id, 'The color-contrast rule finds most of them');
    await story.api.notice(alice, { desc: 'Office hours on Friday', links: ['https://www.w3.org/WAI/'] });
    await story.api.follow(bob, alice.user._id);
    await story.api.follow(alice, bob.user._id);
    await story.api.bookmark(alice, post._id);
    postId = post._id;
  });

  function visitorScreens(ids: { post: string; alice: string }): Screen[] {
    const heading = (name: string) => (page: Page) => page.getByRole('heading', { name }).first().waitFor();
    const text = (words: string) => (page: Page) => page.getByText(words, { exact: true }).waitFor();
    return [
      {
        name: 'home feed and top posts',
        path: '/',
        ready: (page) => page.getByRole('feed').getByText('Reading axe reports').waitFor(),
      },
      { name: 'following feed', path: '/?feed=following', ready: heading('Following') },
      {
        name: 'post',
        path: `/posts/${ids.post}`,
        ready: (page) => page.getByText('The color-contrast rule finds most of them').waitFor(),
      },
      { name: 'missing post', path: '/posts/ffffffffffffffffffffffff', ready: text("This Post doesn't exist!") },
      { name: 'notices', path: '/notices', ready: (page) => page.getByText('Office hours on Friday').waitFor() },
      { name: 'profile', path: `/profile/${ids.alice}`, ready: heading('alice_a11y') },
      {
        name: 'profile notices',
        path: `/profile/${ids.alice}`,
        ready: heading('alice_a11y'),
        act: async (page) => {
          await page.getByRole('tab', { name: 'Notice' }).click();
          await page.getByRole('tabpanel').getByText('Office hours on Friday').waitFor();
        },
      },
      {
        name: 'missing profile',
        path: '/profile/ffffffffffffffffffffffff',
        ready: text("This User doesn't exist!"),
      },
      { name: 'not found', path: '/no/such/page', ready: text("This page doesn't exist!") },
      { name: 'admin area (not found to a visitor)', path: '/admin', ready: text("This page doesn't exist!") },
      { name: 'moderation log', path: '/moderation', ready: heading('Moderation log') },
      { name: 'login', path: '/login', ready: heading('Login to your account') },
      { name: 'signup', path: '/signup', ready: heading('Create an account') },
      { name: 'forgot password', path: '/forgot-password', ready: heading('Reset your password') },
      {
        name: 'reset password',
        path: `/reset-password?token=${'t'.repeat(43)}`,
        ready: heading('Choose a new password'),
      },
      { name: 'reset password without a token', path: '/reset-password', ready: heading('Choose a new password') },
      {
        name: 'Login Required! toast',
        path: '/',
        ready: (page) => page.getByRole('feed').getByText('Reading axe reports').waitFor(),
        act: async (page) => {
          await page.getByRole('button', { name: /^Like/ }).first().click();
          await page.getByText('Login Required!').waitFor();
        },
      },
      {
        name: 'More menu',
        path: '/',
        only: 'desktop',
        ready: heading('For you'),
        act: async (page) => {
          await page.getByRole('button', { name: 'More' }).click();
          await settledMenuItem(page, 'Login');
        },
      },
      {
        name: 'bottom bar menu',
        path: '/',
        only: 'phone',
        ready: heading('For you'),
        act: async (page) => {
          await page.getByRole('button', { name: 'Menu' }).click();
          await settledMenuItem(page, 'Following Feed');
        },
      },
    ];
  }

  function memberScreens(ids: { post: string; alice: string; bob: string }): Screen[] {
    const heading = (name: string) => (page: Page) => page.getByRole('heading', { name }).first().waitFor();
    return [
      {
        name: 'home feed with the feed switch',
        path: '/',
        ready: (page) => page.getByRole('feed').getByText('Reading axe reports').waitFor(),
      },
      {
        name: 'following feed',
        path: '/?feed=following',
        ready: (page) => page.getByRole('feed').getByText('Contrast by numbers').waitFor(),
      },
      {
        name: 'post with the comment form',
        path: `/posts/${ids.post}`,
        ready: (page) => page.getByRole('button', { name: 'Post', exact: true }).waitFor(),
      },
      { name: 'create post', path: '/createpost', ready: heading('Create a post') },
      {
        name: 'create notice',
        path: '/createpost',
        ready: heading('Create a post'),
        act: async (page) => {
          await page.getByRole('radiogroup', { name: 'What to create' }).getByText('Notice', { exact: true }).click();
          await page.getByRole('heading', { name: 'Create a notice' }).waitFor();
        },
      },
      {
        name: 'edit post',
        path: `/editpost/${ids.post}`,
        ready: (page) => page.getByRole('textbox', { name: 'Title' }).waitFor(),
      },
      { name: 'notices', path: '/notices', ready: (page) => page.getByText('Office hours on Friday').waitFor() },
      {
        name: 'own profile',
        path: `/profile/${ids.alice}`,
        ready: (page) => page.getByRole('button', { name: 'Edit Profile' }).waitFor(),
      },
      {
        name: 'notifications',
        path: '/notifications',
        ready: (page) => page.getByRole('link', { name: /followed you/ }).waitFor(),
      },
      {
        name: 'notification settings',
        path: `/profile/${ids.alice}?tab=settings`,
        ready: (page) => page.getByRole('switch', { name: 'Likes' }).waitFor(),
      },
      {
        name: 'edit profile menu',
        path: `/profile/${ids.alice}`,
        ready: (page) => page.getByRole('button', { name: 'Edit Profile' }).waitFor(),
        act: async (page) => {
          await page.getByRole('button', { name: 'Edit Profile' }).click();
          await settledMenuItem(page, 'Update Bio');
        },
      },
      {
        name: 'update bio dialog',
        path: `/profile/${ids.alice}`,
        ready: (page) => page.getByRole('button', { name: 'Edit Profile' }).waitFor(),
        act: async (page) => {
          await page.getByRole('button', { name: 'Edit Profile' }).click();
          await (await settledMenuItem(page, 'Update Bio')).click();
          await page.getByRole('dialog', { name: 'Update Bio' }).waitFor();
        },
      },
      {
        name: 'delete confirmation',
        path: `/posts/${ids.post}`,
        ready: (page) => page.getByRole('button', { name: 'Delete post: Reading axe reports' }).waitFor(),
        act: async (page) => {
          await page.getByRole('button', { name: 'Delete post: Reading axe reports' }).click();
          await settledConfirm(page, 'Are you sure you want to delete this post?');
        },
      },
      {
        name: 'bookmarks',
        path: '/bookmarks',
        ready: (page) => page.getByRole('feed').getByText('Reading axe reports').waitFor(),
      },
      {
        name: 'bookmarks tag filter',
        path: '/bookmarks',
        ready: (page) => page.getByRole('feed').getByText('Reading axe reports').waitFor(),
        act: async (page) => {
          await page.getByRole('combobox', { name: 'Tag' }).focus();
          await page.keyboard.type('axe');
          await page.locator('.ant-select-item-option').filter({ hasText: '#axe' }).waitFor();
        },
      },
      {
        name: 'bookmarks, none match',
        path: '/bookmarks?q=nothingmatchesthis',
        ready: (page) => page.getByText('No bookmarks match', { exact: true }).waitFor(),
      },
      {
        name: 'other profile',
        path: `/profile/${ids.bob}`,
        ready: (page) => page.getByRole('button', { name: 'Unfollow' }).waitFor(),
      },
      {
        name: 'other profile, block and mute menu',
        path: `/profile/${ids.bob}`,
        ready: (page) => page.getByRole('button', { name: 'Unfollow' }).waitFor(),
        act: async (page) => {
          await page.getByRole('button', { name: /^More actions for / }).click();
          await settledMenuItem(page, /^Block /);
        },
      },
      {
        name: 'settings',
        path: '/settings',
        ready: (page) => page.getByText('You block nobody.').waitFor(),
      },
      {
        name: 'delete account dialog',
        path: '/settings',
        ready: (page) => page.getByText('You block nobody.').waitFor(),
        act: async (page) => {
          await page.getByRole('button', { name: 'Delete my account' }).click();
          await settledDialog(page, 'Delete your account?');
        },
      },
      {
        name: 'report dialog',
        path: `/posts/${ids.post}`,
        ready: (page) => page.getByRole('button', { name: 'Report comment: comment by bob_a11y' }).waitFor(),
        act: async (page) => {
          await page.getByRole('button', { name: 'Report comment: comment by bob_a11y' }).click();
          await settledDialog(page, 'Report this comment');
        },
      },
      { name: 'moderation log', path: '/moderation', ready: heading('Moderation log') },
    ];
  }

  /**
   * Each screen as it loads at desktop width, then the same page narrowed to a phone's (the bars
   * and columns switch by CSS alone, so one load serves both); every failure listed.
   */
  async function check(page: Page, screens: Screen[], who: string, theme: Theme): Promise<string[]> {
    const found: string[] = [];
    for (const screen of screens) {
      const widths = (['desktop', 'phone'] as const).filter((width) => !screen.only || screen.only === width);
      await page.setViewportSize(widths[0] === 'desktop' ? DESKTOP : PHONE);
      await page.goto(screen.path);
      await screen.ready(page);
      await screen.act?.(page);
      for (const width of widths) {
        await page.setViewportSize(width === 'desktop' ? DESKTOP : PHONE);
        await settled(page);
        const label = `${who}, ${theme}, ${width}: ${screen.name}`;
        found.push(...describeViolations(await seriousViolations(page)).map((line) => `${label}: ${line}`));
      }
    }
    return found;
  }

  it.each(['light', 'dark'] as const)(
    'has no serious or critical axe-core violation on any screen, as a visitor and signed in (%s theme)',
    async (theme) => {
      const page = await story.open('/login');
      await page.evaluate((value) => localStorage.setItem('techit-theme', value), theme);
      const found = await check(page, visitorScreens({ post: postId, alice: alice.user._id }), 'visitor', theme);

      const member: Session = { ...alice, user: { ...alice.user, theme } };
      await page.evaluate((session) => {
        localStorage.setItem('jwt', session.token);
        localStorage.setItem('techit-user', JSON.stringify(session.user));
      }, member);
      found.push(
        ...(await check(
          page,
          memberScreens({ post: postId, alice: alice.user._id, bob: bob.user._id }),
          'member',
          theme,
        )),
      );
      expect(found).toEqual([]);
    },
    300_000,
  );

  it('lets a keyboard user skip to the content, and reach the feed switch and Top Posts before any post', async () => {
    const page = await story.open('/', { session: alice });
    await page.getByRole('feed').getByText('Reading axe reports').waitFor();
    await page.getByRole('complementary').getByRole('link', { name: 'Reading axe reports' }).waitFor();

    // The first Tab reaches the skip link, shown where it can be seen.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((link) => link === document.activeElement)).toBe(true);
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= DESKTOP.height).toBe(true);

    // Enter moves focus to the page's content; the next Tab stops go through the side panel
    // (the feed switch, then Top Posts with its All time / This week choice) before the first post card.
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    const stops: Array<{ name: string; inFeed: boolean }> = [];
    while (!stops.some((stop) => stop.inFeed) && stops.length < 30) {
      await page.keyboard.press('Tab');
      stops.push(
        await page.evaluate(() => {
          const active = document.activeElement;
          return { name: active?.textContent?.trim() ?? '', inFeed: !!active?.closest('[role="feed"]') };
        }),
      );
    }
    const beforeFeed = stops.filter((stop) => !stop.inFeed).map((stop) => stop.name);
    expect(beforeFeed.slice(0, 7)).toEqual([
      'For you',
      'Following',
      'Hot',
      'Your tags',
      'All time',
      'This week',
      'Reading axe reports',
    ]);
    expect(stops.at(-1)?.inFeed).toBe(true);
  });

  it('reaches the feed switch before any post from the top of the page too (Tab only)', async () => {
    const page = await story.open('/', { session: alice });
    await page.getByRole('feed').getByText('Reading axe reports').waitFor();
    const stops: Array<{ name: string; inFeed: boolean }> = [];
    while (!stops.some((stop) => stop.inFeed) && stops.length < 40) {
      await page.keyboard.press('Tab');
      stops.push(
        await page.evaluate(() => {
          const active = document.activeElement;
          return { name: active?.textContent?.trim() ?? '', inFeed: !!active?.closest('[role="feed"]') };
        }),
      );
    }
    const names = stops.map((stop) => stop.name);
    expect(names[0]).toBe('Skip to content');
    expect(names).toEqual(expect.arrayContaining(['For you', 'Following']));
    expect(stops.findIndex((stop) => stop.name === 'Following')).toBeLessThan(stops.findIndex((stop) => stop.inFeed));
  });
});
