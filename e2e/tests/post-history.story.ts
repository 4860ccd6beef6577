import type { Me } from '@techit/contract/api-types';
import type { Locator, Page } from 'playwright-core';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import { seenTheme, scrollsSideways } from '../support/appearance';
import { useStory } from '../support/browser';

const PHONE = { width: 390, height: 844 };

/** Saves the open edit form and waits for the post's page to show the saved title. */
async function saveEdit(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForURL('**/posts/*');
  await page.getByRole('article').getByRole('heading', { level: 1, name: title }).waitFor();
}

describe('An author reads the edit history of a post (issue 16)', () => {
  const story = useStory();

  it('edits a post twice, opens History from the keyboard and sees both edits with the changed words', async () => {
    const author = await story.api.user();
    const other = await story.api.user();
    const post = await story.api.post(author, {
      title: 'Engine notes',
      desc: 'The engine starts slowly on cold mornings',
      category: 'Doubt',
    });

    const page = await story.open(`/posts/${post._id}`, { session: author });
    const detail = page.getByRole('article');
    await detail.getByRole('heading', { level: 1, name: 'Engine notes' }).waitFor();
    // Never edited: no "edited", no History.
    expect(await detail.getByText('edited').count()).toBe(0);
    expect(await detail.getByRole('link', { name: /^Edit history/ }).count()).toBe(0);

    // First edit: one word of the description.
    await detail.getByRole('button', { name: 'Edit post: Engine notes' }).click();
    await page.waitForURL('**/editpost/*');
    await page.getByLabel('Description').fill('The engine starts quickly on cold mornings');
    await saveEdit(page, 'Engine notes');
    const mark = page.getByRole('article').getByText('· edited');
    await mark.waitFor();
    expect(await mark.getAttribute('title')).toMatch(/^Edited [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d$/);

    // Second edit: the title and the category.
    await page.getByRole('article').getByRole('button', { name: 'Edit post: Engine notes' }).click();
    await page.waitForURL('**/editpost/*');
    await page.getByRole('textbox', { name: 'Title' }).fill('Engine field notes');
    await page.getByLabel('Category', { exact: true }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Informative' }).click();
    await saveEdit(page, 'Engine field notes');

    await story.screenshot(page, 'post-history-detail');
    // History, reached and opened with the keyboard.
    const history = page
      .getByRole('article')
      .getByRole('link', { name: 'Edit history of the post: Engine field notes' });
    await history.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/posts/${post._id}/history`);
    await page.getByRole('heading', { level: 1, name: 'Edit history: Engine field notes' }).waitFor();

    const edits = page.locator('.revision-list > li');
    await edits.nth(1).waitFor();
    expect(await edits.count()).toBe(2);
    // Newest first: the title and the category, nothing else.
    const newest = edits.nth(0);
    expect(await newest.locator('dt').allInnerTexts()).toEqual(['Title', 'Category']);
    const field = (edit: Locator, label: string) =>
      edit.locator('.revision-field').filter({ has: page.locator('dt', { hasText: label }) });
    expect(await field(newest, 'Title').locator('ins').allInnerTexts()).toEqual([expect.stringContaining('field')]);
    expect(await field(newest, 'Title').locator('del').count()).toBe(0);
    expect(await field(newest, 'Category').locator('del').innerText()).toContain('Doubt');
    expect(await field(newest, 'Category').locator('ins').innerText()).toContain('Informative');
    expect(await newest.innerText()).toContain(`Edited by ${author.user.userName}`);
    // The first edit: only the description, the one word changed.
    const first = edits.nth(1);
    expect(await first.locator('dt').allInnerTexts()).toEqual(['Description']);
    expect(await first.locator('del').allInnerTexts()).toEqual([expect.stringContaining('slowly')]);
    expect(await first.locator('ins').allInnerTexts()).toEqual([expect.stringContaining('quickly')]);
    expect(await first.locator('del').innerText()).not.toContain('engine');
    await settled(page);
    await expectNoSeriousViolations(page, 'the edit history');
    await story.screenshot(page, 'post-history-light');

    // On a phone, nothing scrolls sideways.
    const phone = await story.open(`/posts/${post._id}/history`, { session: author, viewport: PHONE });
    await phone.locator('.revision-list > li').nth(1).waitFor();
    expect(await scrollsSideways(phone)).toBe(false);
    await story.screenshot(phone, 'post-history-phone');

    // In the dark theme the words stay readable on the dark page.
    const dark = await story.api.request<Me>('PUT', '/updatetheme', { theme: 'dark' }, author.token);
    const darkPage = await story.open(`/posts/${post._id}/history`, { session: { ...author, user: dark } });
    const heading = darkPage.getByRole('heading', { level: 1, name: 'Edit history: Engine field notes' });
    await heading.waitFor();
    await darkPage.locator('.revision-list > li').nth(1).waitFor();
    expect(await seenTheme(heading)).toBe('dark');
    await settled(darkPage);
    await expectNoSeriousViolations(darkPage, 'the edit history in the dark theme');
    await story.screenshot(darkPage, 'post-history-dark');

    // Another member sees neither the link nor the history.
    const stranger = await story.open(`/posts/${post._id}`, { session: other });
    await stranger.getByRole('heading', { level: 1, name: 'Engine field notes' }).waitFor();
    await stranger.getByRole('article').getByText('· edited').waitFor();
    expect(await stranger.getByRole('link', { name: /^Edit history/ }).count()).toBe(0);
    await stranger.goto(`/posts/${post._id}/history`);
    await stranger.getByText('This history is private').waitFor();
  });

  it('a post whose updatedAt moved without an edit (an imported one) does not say edited', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Imported long ago' });
    const page = await story.open('/');
    // The reply as an imported post has it: saved again later, never edited.
    const later = new Date(Date.parse(post.createdAt) + 3_600_000).toISOString();
    await page.route(`**/api/posts/${post._id}?*`, async (route) => {
      const reply = await route.fetch();
      const body = (await reply.json()) as { post: Record<string, unknown> };
      expect(body.post.editedAt).toBeNull();
      await route.fulfill({ response: reply, json: { post: { ...body.post, updatedAt: later } } });
    });
    await page.goto(`/posts/${post._id}`);
    const detail = page.getByRole('article');
    await detail.getByRole('heading', { level: 1, name: 'Imported long ago' }).waitFor();
    await detail.locator('time').first().waitFor();
    expect(await detail.getByText('edited').count()).toBe(0);
  });
});
