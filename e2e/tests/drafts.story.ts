import type { Draft, DraftListReply, Me } from '@techit/contract/api-types';
import type { Locator, Page } from 'playwright-core';
import { seenTheme, scrollsSideways } from '../support/appearance';
import { settledConfirm, settledDialog } from '../support/dialogs';
import { apiPath, failRequests } from '../support/failing-requests';
import { PHONE, expectConsoleError, useStory } from '../support/browser';
import type { Session } from '../support/api-helper';

// Typed text must come back byte for byte: accents, CJK, an emoji, a dash, line breaks, blank
// lines and the spaces around them.
const TITLE = 'Ünïcode naïve café — 日本語 🚀';
const DESC = 'First line, ü ß é\nSecond line: 漢字 and “quotes”\n\n  indented after a blank line ✓  ';
/** The Markdown body, typed key by key in the kill story: code, tabs of spaces, non-ASCII. */
const BODY = '## Setup — ü\n\n```ts\nconst greeting = "héllo 🚀";\n  console.log(greeting);\n```\n\n- [ ] done?\n';
const CONFLICT_TITLE = 'This draft was changed in another tab or device';

/** The editor's status line ("Saving…", "Saved", …) once it says `text`. */
async function statusSays(page: Page, text: string): Promise<Locator> {
  const status = page.getByRole('status').filter({ hasText: new RegExp(`^\\s*${text}$`) });
  await status.waitFor();
  return status;
}

async function openCreatePage(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Create a post' }).waitFor();
}

/** Waits until the field holds exactly `value` (restoring fills it a moment after the page shows). */
async function fieldHolds(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.waitFor();
  await page.waitForFunction(
    ({ element, expected }) => (element as HTMLInputElement | HTMLTextAreaElement).value === expected,
    { element: await field.elementHandle(), expected: value },
  );
  expect(await field.inputValue()).toBe(value);
}

/**
 * From now on no save of this page reaches the server (typing can go on): refused on the way, as
 * on a dead line. Held requests would not do: closing the context lets them go.
 */
async function cutSaves(page: Page): Promise<void> {
  expectConsoleError(page, /ERR_FAILED|ERR_INTERNET_DISCONNECTED/);
  await page.route('**/api/drafts**', (route) =>
    route.request().method() === 'GET' ? route.continue() : route.abort('failed'),
  );
}

/**
 * The page dies as a killed tab does: what the browser keeps in storage at this moment is taken
 * (as a disk would keep it), then the renderer crashes (no unload, no hidden page, no last save)
 * and the context goes. A plain close would first make the page hidden, when the editor sends
 * what is due.
 */
async function kill(page: Page): Promise<{ name: string; value: string }[]> {
  const kept = await page.context().storageState();
  const cdp = await page.context().newCDPSession(page);
  const crashed = new Promise<void>((resolve) => page.once('crash', () => resolve()));
  // Never answered: the renderer that would answer is gone.
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;
  await page.context().close();
  return kept.origins.flatMap((origin) => origin.localStorage);
}

describe('A writer never loses a draft (issue 16)', () => {
  const story = useStory();

  const drafts = async (session: Session, query = ''): Promise<Draft[]> =>
    (await story.api.request<DraftListReply>('GET', `/drafts${query}`, undefined, session.token)).drafts;

  it('types into the create form, the page is killed before any save reaches the server, and a new page shows the text byte for byte', async () => {
    const author = await story.api.user();
    const page = await story.open('/createpost', { session: author });
    await openCreatePage(page);
    // The server never gets a save from this page: it dies first.
    await cutSaves(page);

    await page.getByLabel('Title', { exact: true }).fill(TITLE);
    await page.getByLabel('Description', { exact: true }).fill(DESC);
    // Typed key by key, and the page dies right after the last key.
    await page.getByLabel('Body (optional)', { exact: true }).pressSequentially(BODY);
    const kept = await kill(page);
    expect(await drafts(author)).toEqual([]);

    // Another browser window on the same profile: the same storage, mirror included.
    const reopened = await story.open('/api/health');
    await reopened.evaluate((items) => {
      for (const { name, value } of items) localStorage.setItem(name, value);
    }, kept);
    await reopened.goto('/createpost');
    await openCreatePage(reopened);
    await fieldHolds(reopened, 'Title', TITLE);
    await fieldHolds(reopened, 'Description', DESC);
    await fieldHolds(reopened, 'Body (optional)', BODY);

    // This device's text, newer than the server's (nothing), is saved to the server.
    await statusSays(reopened, 'Saved');
    const [saved] = await drafts(author);
    expect(saved).toMatchObject({ kind: 'post', postId: null, title: TITLE, desc: DESC, body: BODY });
  });

  it('saves within seconds, and another device (no local copy) opens the create page on the same draft', async () => {
    const author = await story.api.user();
    const laptop = await story.open('/createpost', { session: author });
    await openCreatePage(laptop);
    await laptop.getByLabel('Title', { exact: true }).fill(TITLE);
    await laptop.getByLabel('Description', { exact: true }).fill(DESC);
    await laptop.getByLabel('Body (optional)', { exact: true }).fill(BODY);
    await statusSays(laptop, 'Saved');

    const phone = await story.open('/createpost', { session: author, viewport: PHONE });
    await openCreatePage(phone);
    await fieldHolds(phone, 'Title', TITLE);
    await fieldHolds(phone, 'Description', DESC);
    await fieldHolds(phone, 'Body (optional)', BODY);
    await statusSays(phone, 'Saved');
    // The drafts list names it and marks it as the one open.
    const list = phone.getByRole('region', { name: 'Your drafts' });
    await list.getByText(TITLE).waitFor();
    await list.getByText(/Editing now/).waitFor();
    expect(await scrollsSideways(phone)).toBe(false);
    await story.screenshot(phone, 'drafts-create-phone');
  });

  it('two tabs edit the same draft: the stale save opens the conflict dialog; keep mine, or use the other version', async () => {
    const author = await story.api.user();
    const start = await story.api.request<{ draft: Draft }>(
      'POST',
      '/drafts',
      { kind: 'post', title: 'Shared start', desc: 'Both tabs open this' },
      author.token,
    );
    const tabA = await story.open('/createpost', { session: author });
    const tabB = await story.open('/createpost', { session: author });
    for (const tab of [tabA, tabB]) {
      await fieldHolds(tab, 'Title', 'Shared start');
      await statusSays(tab, 'Saved');
    }

    // Tab A saves first; tab B still holds version 1.
    await tabA.getByLabel('Description', { exact: true }).fill('Written in tab A\nsecond line A');
    await statusSays(tabA, 'Saved');
    await tabB.getByLabel('Description', { exact: true }).fill('Written in tab B — ü\nsecond line B');
    const dialog = await settledDialog(tabB, CONFLICT_TITLE);
    await dialog.getByText('Written in tab A').waitFor();
    await statusSays(tabB, 'Changed in another tab');
    await story.screenshot(tabB, 'drafts-conflict-light');
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await statusSays(tabB, 'Saved');
    let [stored] = await drafts(author);
    expect(stored._id).toBe(start.draft._id);
    expect(stored.desc).toBe('Written in tab B — ü\nsecond line B');

    // Now tab A is the stale one: it takes tab B's text instead of overwriting it.
    await tabA.getByLabel('Title', { exact: true }).fill('Tab A title');
    const dialogA = await settledDialog(tabA, CONFLICT_TITLE);
    await dialogA.getByRole('button', { name: 'Use the other version' }).click();
    await dialogA.waitFor({ state: 'hidden' });
    await fieldHolds(tabA, 'Title', 'Shared start');
    await fieldHolds(tabA, 'Description', 'Written in tab B — ü\nsecond line B');
    await statusSays(tabA, 'Saved');
    [stored] = await drafts(author);
    expect(stored).toMatchObject({ title: 'Shared start', desc: 'Written in tab B — ü\nsecond line B' });
  });

  it('publishing a post written in a draft deletes the draft; Discard draft deletes one too', async () => {
    const author = await story.api.user();
    const page = await story.open('/createpost', { session: author });
    await openCreatePage(page);
    await page.getByLabel('Title', { exact: true }).fill('Published from a draft');
    await page.getByLabel('Description', { exact: true }).fill('Soon a post');
    await statusSays(page, 'Saved');
    expect(await drafts(author)).toHaveLength(1);

    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Published from a draft' }).first().waitFor();
    expect(await drafts(author)).toEqual([]);

    // Back on the create page: no list, an empty form (the local copy went with it).
    await page.goto('/createpost');
    await openCreatePage(page);
    await page.getByLabel('Title', { exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Your drafts' }).count()).toBe(0);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');

    // A draft discarded: gone from the server and from the form.
    await page.getByLabel('Title', { exact: true }).fill('Not worth keeping');
    await statusSays(page, 'Saved');
    await page.getByRole('button', { name: 'Discard draft' }).click();
    const confirm = await settledConfirm(page, 'Discard this draft?');
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await fieldHolds(page, 'Title', '');
    expect(await drafts(author)).toEqual([]);
    await page.reload();
    await openCreatePage(page);
    await fieldHolds(page, 'Title', '');
  });

  it('lists the drafts on the create page, opens an older one into the form, and deletes one', async () => {
    const author = await story.api.user();
    const older = await story.api.request<{ draft: Draft }>(
      'POST',
      '/drafts',
      { kind: 'post', title: 'Older idea', desc: 'From last week' },
      author.token,
    );
    await story.api.request('POST', '/drafts', { kind: 'post', desc: 'No title yet' }, author.token);
    const dark = await story.api.request<Me>('PUT', '/updatetheme', { theme: 'dark' }, author.token);
    const page = await story.open('/createpost', { session: { ...author, user: dark } });
    await openCreatePage(page);
    // The newest opens; the list shows both, the untitled one as "Untitled".
    await fieldHolds(page, 'Description', 'No title yet');
    const list = page.getByRole('region', { name: 'Your drafts' });
    await list.getByText('Untitled').waitFor();
    await list.getByText('Older idea').waitFor();
    expect(await seenTheme(list.getByText('Older idea'))).toBe('dark');
    await statusSays(page, 'Saved');
    await story.screenshot(page, 'drafts-create-dark');

    await list.getByRole('button', { name: 'Open draft Older idea' }).click();
    await fieldHolds(page, 'Title', 'Older idea');
    await fieldHolds(page, 'Description', 'From last week');
    await page.getByLabel('Description', { exact: true }).fill('From last week, revised');
    await statusSays(page, 'Saved');
    expect((await drafts(author)).find((draft) => draft._id === older.draft._id)?.desc).toBe('From last week, revised');

    await list.getByRole('button', { name: 'Delete draft Untitled' }).click();
    const confirm = await settledConfirm(page, 'Delete this draft?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await list.getByText('Untitled').waitFor({ state: 'detached' });
    expect((await drafts(author)).map((draft) => draft._id)).toEqual([older.draft._id]);
  });

  it('editing a post autosaves its edit draft, which the edit page restores on another device', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'Original title', desc: 'Original words', category: 'Doubt' });
    const page = await story.open(`/editpost/${post._id}`, { session: author });
    await fieldHolds(page, 'Title', 'Original title');
    await page.getByLabel('Description', { exact: true }).fill(DESC);
    await statusSays(page, 'Saved');
    const [draft] = await drafts(author, `?postId=${post._id}`);
    expect(draft).toMatchObject({ postId: post._id, title: 'Original title', desc: DESC });

    const other = await story.open(`/editpost/${post._id}`, { session: author });
    await fieldHolds(other, 'Description', DESC);
    await statusSays(other, 'Saved');
    await other.getByRole('button', { name: 'Save changes' }).click();
    await other.waitForURL(`**/posts/${post._id}`);
    expect(await drafts(author)).toEqual([]);
  });
  it('a notice is autosaved too: another device restores it, and posting it deletes the draft', async () => {
    const author = await story.api.user();
    const chooseNotice = async (page: Page) => {
      await openCreatePage(page);
      await page.getByRole('radiogroup', { name: 'What to create' }).getByText('Notice', { exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Create a notice' }).waitFor();
    };
    const page = await story.open('/createpost', { session: author });
    await chooseNotice(page);
    await page.getByLabel('Description', { exact: true }).fill(DESC);
    await page.getByRole('button', { name: 'Add Link +' }).click();
    await page.getByLabel('Link 1', { exact: true }).fill('https://example.com/ü');
    await statusSays(page, 'Saved');
    const [draft] = await drafts(author);
    expect(draft).toMatchObject({ kind: 'notice', desc: DESC, links: ['https://example.com/ü'] });

    const other = await story.open('/createpost', { session: author });
    await chooseNotice(other);
    await fieldHolds(other, 'Description', DESC);
    await fieldHolds(other, 'Link 1', 'https://example.com/ü');
    await statusSays(other, 'Saved');
    await other.getByRole('button', { name: 'Post', exact: true }).click();
    await other.waitForURL((url) => url.pathname === '/');
    expect(await drafts(author)).toEqual([]);
  });
  it('two tabs start the edit draft of one post at once: the second gets the conflict dialog, not a rival draft', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'One post', desc: 'Two tabs', category: 'Doubt' });
    const tabA = await story.open(`/editpost/${post._id}`, { session: author });
    const tabB = await story.open(`/editpost/${post._id}`, { session: author });
    await fieldHolds(tabA, 'Title', 'One post');
    await fieldHolds(tabB, 'Title', 'One post');
    await tabA.getByLabel('Title', { exact: true }).fill('Title from tab A');
    await statusSays(tabA, 'Saved');
    // Tab B knows of no draft yet: its first save (a POST) finds tab A's.
    await tabB.getByLabel('Title', { exact: true }).fill('Title from tab B');
    const dialog = await settledDialog(tabB, CONFLICT_TITLE);
    await dialog.getByText('Title from tab A').waitFor();
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await statusSays(tabB, 'Saved');
    const edits = await drafts(author, `?postId=${post._id}`);
    expect(edits.map((draft) => draft.title)).toEqual(['Title from tab B']);
  });

  it('a copy on this device that the server moved on from meanwhile is not saved over it: the dialog asks', async () => {
    const author = await story.api.user();
    const start = await story.api.request<{ draft: Draft }>(
      'POST',
      '/drafts',
      { kind: 'post', title: 'Version one', desc: 'Start' },
      author.token,
    );
    const page = await story.open('/createpost', { session: author });
    await fieldHolds(page, 'Title', 'Version one');
    await cutSaves(page);
    await page.getByLabel('Description', { exact: true }).fill('Typed on the laptop, never sent');
    const kept = await kill(page);
    // Meanwhile another device saved the draft.
    await story.api.request(
      'PUT',
      `/drafts/${start.draft._id}`,
      { title: 'Version one', desc: 'Saved from the phone', version: 1 },
      author.token,
    );

    const reopened = await story.open('/api/health');
    await reopened.evaluate((items) => {
      for (const { name, value } of items) localStorage.setItem(name, value);
    }, kept);
    await reopened.goto('/createpost');
    const dialog = await settledDialog(reopened, CONFLICT_TITLE);
    await dialog.getByText('Saved from the phone').waitFor();
    await dialog.getByText('Typed on the laptop, never sent').waitFor();
    // Nothing was saved over the phone's text while the dialog waits.
    expect((await drafts(author))[0].desc).toBe('Saved from the phone');
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await statusSays(reopened, 'Saved');
    expect((await drafts(author))[0]).toMatchObject({ desc: 'Typed on the laptop, never sent', version: 3 });
  });
  it('a save that fails says "Offline — kept on this device" and is retried until the server has it', async () => {
    const author = await story.api.user();
    const page = await story.open('/createpost', { session: author });
    await openCreatePage(page);
    const reconnect = await failRequests(page, apiPath('/drafts'), 'network');
    await page.getByLabel('Title', { exact: true }).fill(TITLE);
    await page.getByLabel('Description', { exact: true }).fill(DESC);
    await statusSays(page, 'Offline — kept on this device');
    expect(await drafts(author)).toEqual([]);
    await reconnect();
    await statusSays(page, 'Saved');
    expect(await drafts(author)).toMatchObject([{ title: TITLE, desc: DESC }]);
  });
});
