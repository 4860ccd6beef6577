import type { Page } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import { PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';

function dark(session: Session): Session {
  return { ...session, user: { ...session.user, theme: 'dark' } };
}

/** The editor's tag input: the combobox its label names. */
function tagInput(page: Page) {
  return page.getByRole('combobox', { name: 'Tags (optional)' });
}

/** The tags the input holds, as it shows them. */
function chosenTags(page: Page): Promise<string[]> {
  return page.locator('.tag-input .ant-select-selection-item').allInnerTexts();
}

/** The tag links of a card (or the post's page), as they read. */
function cardTags(page: Page, title: string): Promise<string[]> {
  return page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: title }) })
    .getByRole('list', { name: 'Tags' })
    .getByRole('link')
    .allInnerTexts();
}

/** Waits until the input shows exactly these tags (a key press is handled after it returns). */
async function waitForTags(page: Page, expected: string[]): Promise<void> {
  await page.waitForFunction(
    (want) =>
      JSON.stringify(
        Array.from(document.querySelectorAll('.tag-input .ant-select-selection-item')).map((item) =>
          (item as HTMLElement).innerText.trim(),
        ),
      ) === JSON.stringify(want),
    expected,
  );
}

describe('Tags (issue 17)', () => {
  const story = useStory();

  it('a member tags a new post from the keyboard, with a suggestion, and finds the tags on the card, the post and the tag page', async () => {
    const other = await story.api.user();
    await story.api.post(other, { title: 'Cluster notes', tags: ['kubernetes'] });
    const member = await story.api.user();
    const page = await story.open('/createpost', { session: member });
    await page.getByRole('heading', { name: 'Create a post' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Typed tags');
    await page.getByLabel('Description').fill('Tagged without the mouse');

    const input = tagInput(page);
    await input.focus();
    // Normalised as the contract says: the # and the capitals go.
    await page.keyboard.type('#JavaScript');
    await page.keyboard.press('Enter');
    await waitForTags(page, ['#javascript']);
    // A comma adds too.
    await page.keyboard.type('web,');
    await waitForTags(page, ['#javascript', '#web']);
    // Backspace in the empty input takes the last one back.
    await page.keyboard.type('oops');
    await page.keyboard.press('Enter');
    await waitForTags(page, ['#javascript', '#web', '#oops']);
    await page.keyboard.press('Backspace');
    await waitForTags(page, ['#javascript', '#web']);

    // A name the rule refuses is not added, and the sentence says why (and is read out).
    await page.keyboard.type('c++');
    await page.keyboard.press('Enter');
    const refusal = page.locator('.tag-input').getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(
      'Tag "c++" must be 1 to 30 lower-case letters, digits or dashes, starting with a letter or digit',
    );
    expect(await chosenTags(page)).toEqual(['#javascript', '#web']);
    for (let index = 0; index < 3; index += 1) await page.keyboard.press('Backspace');
    await refusal.waitFor({ state: 'detached' });

    // The used tags are suggested as one types: the arrow keys pick one.
    await page.keyboard.type('kub');
    // The list a person sees (the library also keeps a hidden one for screen readers, which
    // follows the active option through aria-activedescendant).
    await page.locator('.ant-select-item-option').filter({ hasText: '#kubernetes' }).waitFor();
    await expectNoSeriousViolations(page, 'the tag suggestions, open');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(
      () => document.querySelector('.ant-select-item-option-active')?.textContent?.includes('kubernetes') === true,
    );
    await page.keyboard.press('Enter');
    await waitForTags(page, ['#javascript', '#web', '#kubernetes']);

    await page.keyboard.type('four');
    await page.keyboard.press('Enter');
    await waitForTags(page, ['#javascript', '#web', '#kubernetes', '#four']);
    // A fifth is one too many.
    await page.keyboard.type('five');
    await page.keyboard.press('Enter');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe('A post can have at most 4 tags');
    expect(await chosenTags(page)).toHaveLength(4);
    for (let index = 0; index < 4; index += 1) await page.keyboard.press('Backspace');
    await waitForTags(page, ['#javascript', '#web', '#kubernetes', '#four']);
    await page.keyboard.press('Backspace');
    await waitForTags(page, ['#javascript', '#web', '#kubernetes']);
    await page.keyboard.press('Escape');
    await settled(page);
    await expectNoSeriousViolations(page, 'the editor with tags');
    await story.screenshot(page, 'tags-editor-light');

    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByText('Created post successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('article').first().getByRole('heading', { name: 'Typed tags' }).waitFor();
    expect(await cardTags(page, 'Typed tags')).toEqual(['#javascript', '#web', '#kubernetes']);
    await story.screenshot(page, 'tags-card-light');

    await page.getByRole('feed').getByRole('link', { name: 'Typed tags' }).click();
    await page.getByRole('heading', { level: 1, name: 'Typed tags' }).waitFor();
    expect(await cardTags(page, 'Typed tags')).toEqual(['#javascript', '#web', '#kubernetes']);

    await page.getByRole('link', { name: '#kubernetes' }).click();
    await page.waitForURL((url) => url.pathname === '/t/kubernetes');
    await page.getByRole('heading', { level: 1, name: '#kubernetes' }).waitFor();
    await page.getByText('2 posts').waitFor();
    await page.getByRole('article').filter({ hasText: 'Cluster notes' }).waitFor();
    await page.getByRole('article').filter({ hasText: 'Typed tags' }).waitFor();
    expect(await page.title()).toBe('#kubernetes · TechIt');
    await settled(page);
    await expectNoSeriousViolations(page, 'the tag page');
    await story.screenshot(page, 'tags-page-light');

    // Edited: the editor opens with the post's tags, and History names the change.
    const post = (
      await story.api.request<{ userPosts: { _id: string; title: string }[] }>('GET', `/userposts/${member.user._id}`)
    ).userPosts.find((entry) => entry.title === 'Typed tags');
    const edit = await story.open(`/editpost/${post?._id ?? ''}`, { session: dark(member) });
    await edit.getByRole('textbox', { name: 'Title' }).waitFor();
    await waitForTags(edit, ['#javascript', '#web', '#kubernetes']);
    await tagInput(edit).focus();
    await edit.keyboard.press('Backspace');
    await waitForTags(edit, ['#javascript', '#web']);
    await edit.keyboard.press('Escape');
    // The edit form is the spec's: a category is required.
    await edit.getByLabel('Category', { exact: true }).click();
    await edit.locator('.ant-select-item-option').filter({ hasText: 'Informative' }).click();
    await settled(edit);
    await story.screenshot(edit, 'tags-editor-dark');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitForURL('**/posts/*');
    await edit.getByRole('article').getByRole('heading', { level: 1, name: 'Typed tags' }).waitFor();
    expect(await cardTags(edit, 'Typed tags')).toEqual(['#javascript', '#web']);
    await edit.goto(`/posts/${post?._id ?? ''}/history`);
    const change = edit.locator('.revision-field').filter({ has: edit.getByText('Tags', { exact: true }) });
    await change.waitFor();
    expect(await change.locator('del').textContent()).toBe('Before: #javascript, #web, #kubernetes');
    expect(await change.locator('ins').textContent()).toBe(', after: #javascript, #web');

    // On a phone, in the dark theme.
    const phone = await story.open('/createpost', { session: dark(member), viewport: PHONE });
    await tagInput(phone).focus();
    await phone.keyboard.type('mobile');
    await phone.keyboard.press('Enter');
    await waitForTags(phone, ['#mobile']);
    await phone.keyboard.press('Escape');
    await settled(phone);
    await story.screenshot(phone, 'tags-editor-phone-dark');
    await phone.goto('/t/kubernetes');
    await phone.getByRole('heading', { level: 1, name: '#kubernetes' }).waitFor();
    await phone.getByRole('article').first().waitFor();
    await story.screenshot(phone, 'tags-page-phone-dark');
  });

  it('a reader follows a tag and "Your tags" fills with its posts', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Borrow checker tips', tags: ['rust'] });
    await story.api.post(author, { title: 'Goroutines explained', tags: ['go'] });
    const reader = await story.api.user();

    const page = await story.open('/', { session: reader });
    const feeds = page.getByRole('navigation', { name: 'Feeds' });
    await feeds.getByRole('link', { name: 'Your tags' }).click();
    await page.waitForURL((url) => url.search === '?feed=tags');
    await page.getByRole('heading', { level: 1, name: 'Your tags' }).waitFor();
    await page.getByText('No posts from your tags yet').waitFor();
    expect(await feeds.getByRole('link', { name: 'Your tags' }).getAttribute('aria-current')).toBe('page');

    await page.goto('/');
    await page.getByRole('link', { name: '#rust' }).click();
    await page.waitForURL((url) => url.pathname === '/t/rust');
    await page.getByText('0 followers').waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: 'Unfollow' }).waitFor();
    await page.getByText('1 follower', { exact: true }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed' }).click();
    await feeds.getByRole('link', { name: 'Your tags' }).click();
    await page.waitForURL((url) => url.search === '?feed=tags');
    await page.getByRole('article').filter({ hasText: 'Borrow checker tips' }).waitFor();
    expect(await page.getByRole('article').getByRole('heading').allInnerTexts()).toEqual(['Borrow checker tips']);
    // The four feeds fit the side panel.
    const [toggle, panel] = await Promise.all([
      page.locator('.feed-toggle').boundingBox(),
      page.getByRole('complementary', { name: 'Feeds and top posts' }).boundingBox(),
    ]);
    expect((toggle?.x ?? 0) + (toggle?.width ?? 0)).toBeLessThanOrEqual((panel?.x ?? 0) + (panel?.width ?? 0));
    const yourTags = await feeds.getByRole('link', { name: 'Your tags' }).boundingBox();
    expect((yourTags?.x ?? 0) + (yourTags?.width ?? 0)).toBeLessThanOrEqual(
      (panel?.x ?? 0) + (panel?.width ?? 0) + 0.5,
    );
    await story.screenshot(page, 'tags-your-tags-light');

    // On a phone, "Your tags" is in the bottom bar's menu.
    const phone = await story.open('/', { session: dark(reader), viewport: PHONE });
    await phone.locator('.bottom-nav').getByRole('button', { name: 'Menu' }).click();
    await (await settledMenuItem(phone, 'Your Tags Feed')).click();
    await phone.waitForURL((url) => url.search === '?feed=tags');
    await phone.getByRole('article').filter({ hasText: 'Borrow checker tips' }).waitFor();
    await story.screenshot(phone, 'tags-your-tags-phone-dark');
  });

  it('a visitor sees a tag page with an invitation to log in instead of Follow', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Visitor reading', tags: ['visiting'] });
    const page = await story.open('/t/Visiting');
    // One address per tag.
    await page.waitForURL((url) => url.pathname === '/t/visiting');
    await page.getByRole('heading', { level: 1, name: '#visiting' }).waitFor();
    await page.getByRole('article').filter({ hasText: 'Visitor reading' }).waitFor();
    await page.getByText('Log in to follow this tag').waitFor();
    expect(await page.getByRole('button', { name: 'Follow', exact: true }).count()).toBe(0);
  });

  it('a reader mutes a tag and its posts leave For you', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Calm post' });
    await story.api.post(author, { title: 'Noisy post', tags: ['noise'] });
    const reader = await story.api.user();

    const page = await story.open('/', { session: reader });
    await page.getByRole('article').filter({ hasText: 'Noisy post' }).waitFor();
    await page.getByRole('link', { name: '#noise' }).click();
    await page.waitForURL((url) => url.pathname === '/t/noise');
    await page.getByRole('button', { name: 'Mute' }).click();
    await page.getByRole('button', { name: 'Unmute' }).waitFor();
    await page.getByText("Muted: this tag's posts are left out of your feeds").waitFor();
    // The tag's own page still shows them: opening it is asking for them.
    await page.getByRole('article').filter({ hasText: 'Noisy post' }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed' }).click();
    await page.getByRole('article').filter({ hasText: 'Calm post' }).waitFor();
    await page.getByRole('article').filter({ hasText: 'Noisy post' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('article').getByRole('heading').allInnerTexts()).not.toContain('Noisy post');

    // Unmuted, they come back.
    await page.goto('/t/noise');
    await page.getByRole('button', { name: 'Unmute' }).click();
    await page.getByRole('button', { name: 'Mute' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed' }).click();
    await page.getByRole('article').filter({ hasText: 'Noisy post' }).waitFor();
  });

  it('the top posts panel offers this week and all time, all time first', async () => {
    const author = await story.api.user();
    await story.api.post(author, { title: 'Top of the week' });
    const page = await story.open('/');
    const panel = page.getByRole('region', { name: 'Top Posts' });
    await panel.getByRole('link', { name: 'Top of the week' }).waitFor();
    const allTime = panel.getByRole('button', { name: 'All time' });
    expect(await allTime.getAttribute('aria-pressed')).toBe('true');

    const week = page.waitForRequest((request) => new URL(request.url()).search === '?window=week');
    await panel.getByRole('button', { name: 'This week' }).click();
    await week;
    await page.waitForFunction(
      () => document.querySelector('button[aria-pressed="true"]')?.textContent === 'This week',
    );
    await panel.getByRole('link', { name: 'Top of the week' }).waitFor();
    await story.screenshot(page, 'tags-top-posts-week');
  });
});
