import type { Page } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { useStory } from '../support/browser';

/** The page size of a thread on the post page (COMMENT_PAGE.defaultSize in the contract). */
const PAGE = 50;

function dark(session: Session): Session {
  return { ...session, user: { ...session.user, theme: 'dark' } };
}

/** How many of the thread's seeded replies the page lists (each comment's text, then its actions). */
function replies(page: Page) {
  return page.getByRole('listitem').filter({ has: page.locator('.comment-text', { hasText: /^Reply number \d+$/ }) });
}

/** Waits until the comment saying `text` is highlighted and wholly inside the viewport. */
async function waitUntilShownAsNew(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (wanted) => {
      const item = Array.from(document.querySelectorAll('li')).find((li) => li.textContent?.includes(wanted));
      if (!item) return false;
      const box = item.getBoundingClientRect();
      return item.classList.contains('is-new') && box.top >= 0 && box.bottom <= window.innerHeight;
    },
    text,
    { timeout: 20_000 },
  );
}

describe('A long thread', () => {
  const story = useStory();

  it(`shows ${PAGE} comments, then the rest with "Show more comments"; a new comment is brought into view and highlighted`, async () => {
    const author = await story.api.user();
    const member = await story.api.user();
    const post = await story.api.post(author, { title: 'A long thread', desc: 'Sixty replies' });
    for (let i = 1; i <= PAGE + 10; i += 1) await story.api.comment(author, post._id, `Reply number ${i}`);

    const page = await story.open(`/posts/${post._id}`, { session: member });
    await page.getByRole('heading', { level: 1, name: 'A long thread' }).waitFor();
    await page.getByText(`Reply number ${PAGE}`, { exact: true }).waitFor();
    expect(await replies(page).count()).toBe(PAGE);
    expect(await page.getByRole('heading', { name: `Comments (${PAGE + 10})` }).isVisible()).toBe(true);

    // From the keyboard: the button is focusable and Enter loads the next page.
    const showMore = page.getByRole('button', { name: 'Show more comments' });
    await showMore.focus();
    await page.keyboard.press('Enter');
    await page.getByText(`Reply number ${PAGE + 10}`, { exact: true }).waitFor();
    expect(await replies(page).count()).toBe(PAGE + 10);
    await showMore.waitFor({ state: 'detached' });
    // The keyboard goes on from the first comment the button brought.
    await page.waitForFunction(
      (first) =>
        document.activeElement?.tagName === 'LI' &&
        document.activeElement.querySelector('.comment-text')?.textContent?.trim() === first,
      `Reply number ${PAGE + 1}`,
    );

    await page.getByLabel('Add a comment').fill('A reply at the very end');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await waitUntilShownAsNew(page, 'A reply at the very end');
    expect(await page.getByRole('heading', { name: `Comments (${PAGE + 11})` }).isVisible()).toBe(true);
  });

  it(`brings a new comment into view on a thread of more than ${PAGE}, loading the pages up to it`, async () => {
    const author = await story.api.user();
    const member = await story.api.user();
    const post = await story.api.post(author, { title: 'Another long thread', desc: 'Sixty replies' });
    for (let i = 1; i <= PAGE + 10; i += 1) await story.api.comment(author, post._id, `Reply number ${i}`);

    for (const [name, session, viewport] of [
      ['light', member, undefined],
      ['dark', dark(member), undefined],
      ['phone', member, { width: 390, height: 844 }],
    ] as const) {
      const page = await story.open(`/posts/${post._id}`, { session, viewport });
      await page.getByText(`Reply number ${PAGE}`, { exact: true }).waitFor();
      expect(await replies(page).count()).toBe(PAGE);
      const text = `My late reply (${name})`;
      await page.getByLabel('Add a comment').fill(text);
      await page.getByRole('button', { name: 'Post', exact: true }).click();

      await waitUntilShownAsNew(page, text);
      // Every reply before it is listed, and the comment box is far above, out of view.
      expect(await replies(page).count()).toBe(PAGE + 10);
      const box = await page.getByLabel('Add a comment').boundingBox();
      expect(box && box.y + box.height).toBeLessThan(0);
      await story.screenshot(page, `long-thread-new-comment-${name}`);
    }
  });
});
