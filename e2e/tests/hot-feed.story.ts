import type { Page } from 'playwright-core';
import { PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';

/** The titles of the post cards on screen, top to bottom. */
function cardTitles(page: Page): Promise<string[]> {
  return page.getByRole('article').getByRole('heading').allInnerTexts();
}

describe('A reader switches to the Hot feed', () => {
  const story = useStory();

  it('finds Hot beside For you and Following, and sees the liked post first there', async () => {
    const author = await story.api.user();
    const reader = await story.api.user();
    const fans = [await story.api.user(), await story.api.user(), await story.api.user()];
    const loved = await story.api.post(author, { title: 'Loved yesterday-ish' });
    await story.api.post(author, { title: 'Quiet but newer' });
    // Three likes are worth log10(3) × 12.5 h ≈ 6 hours of newness: more than the seconds between them.
    for (const fan of fans) await story.api.like(fan, loved._id);

    const page = await story.open('/', { session: reader });
    const feeds = page.getByRole('navigation', { name: 'Feeds' });
    await feeds.getByRole('link', { name: 'Hot' }).waitFor();
    await page.getByRole('article').first().waitFor();
    expect((await cardTitles(page)).slice(0, 2)).toEqual(['Quiet but newer', 'Loved yesterday-ish']);

    await feeds.getByRole('link', { name: 'Hot' }).click();
    await page.waitForURL((url) => url.search === '?feed=hot');
    await page.getByRole('heading', { name: 'Hot', level: 1 }).waitFor();
    await page.getByRole('article').first().getByRole('heading', { name: 'Loved yesterday-ish' }).waitFor();
    expect((await cardTitles(page)).slice(0, 2)).toEqual(['Loved yesterday-ish', 'Quiet but newer']);
    expect(await feeds.getByRole('link', { name: 'Hot' }).getAttribute('aria-current')).toBe('page');
    expect(await page.title()).toBe('Hot feed · TechIt');
    await story.screenshot(page, 'hot-feed-light');

    // On a phone the feeds are in the bottom bar's menu.
    const phone = await story.open('/', {
      session: { ...reader, user: { ...reader.user, theme: 'dark' } },
      viewport: PHONE,
    });
    await phone.locator('.bottom-nav').getByRole('button', { name: 'Menu' }).click();
    await (await settledMenuItem(phone, 'Hot Feed')).click();
    await phone.waitForURL((url) => url.search === '?feed=hot');
    await phone.getByRole('heading', { name: 'Hot', level: 1 }).waitFor();
    await phone.getByRole('article').first().waitFor();
    await story.screenshot(phone, 'hot-feed-phone-dark');
  });
});
