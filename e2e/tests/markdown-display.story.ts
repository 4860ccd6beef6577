import type { Post } from '@techit/contract/api-types';
import type { Page } from 'playwright-core';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import type { Session } from '../support/api-helper';
import { scrollsSideways } from '../support/appearance';
import { PHONE, useStory } from '../support/browser';

const HOSTILE = '<img src=x onerror=alert(1)>';

const TS_CODE = [
  'interface User {',
  '  id: number;',
  '  name: string;',
  '}',
  '',
  '// Greets the user by name.',
  'export function greet(user: User): string {',
  '  return `Hello, ${user.name}!`;',
  '}',
].join('\n');

const PY_CODE = [
  'def total(prices: list[float]) -> float:',
  '    """Adds the prices."""',
  '    return sum(prices)',
].join('\n');

const LONG_LINE = `const settings = { ${Array.from({ length: 24 }, (_, index) => `option${index}: ${index}`).join(', ')} };`;

const DESC = `Use \`npm run build\` first, read [the docs](https://example.com/docs) and ask @alice_md. ${HOSTILE}`;

const BODY = [
  '## Getting started',
  '',
  'Install it, then:',
  '',
  '| Step | Command | Seconds |',
  '|:-----|:-------:|--------:|',
  '| build | `npm run build` | 42 |',
  '| test | `npm test` | 7 |',
  '',
  '- [x] write the code',
  '- [ ] write the tests',
  '',
  '> Measure before you optimise.',
  '',
  '```ts',
  TS_CODE,
  '```',
  '',
  '```python',
  PY_CODE,
  '```',
  '',
  '### A long line',
  '',
  '```js',
  LONG_LINE,
  '```',
  '',
  '```sql',
  'SELECT id, title FROM posts WHERE likes_count > 10 ORDER BY created_at DESC LIMIT 20;',
  '```',
  '',
  '```diff',
  '- const a = 1;',
  '+ const a = 2;',
  '```',
].join('\n');

const dark = (session: Session): Session => ({ ...session, user: { ...session.user, theme: 'dark' } });

/** Every alert(), confirm() or prompt() the page tries to open, dismissed and recorded. */
function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (dialog) => {
    opened.push(dialog.message());
    void dialog.dismiss();
  });
  return opened;
}

/** The post's own page, once its body (the article) has rendered. */
async function openPost(page: Page, post: Post): Promise<void> {
  if (!page.url().endsWith(`/posts/${post._id}`)) await page.goto(`/posts/${post._id}`);
  await page.getByRole('heading', { name: 'Getting started' }).waitFor();
}

const clipboardText = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

describe('Readers see a post, its comments and notices as Markdown', () => {
  const story = useStory();
  let author: Session;
  let alice: Session;
  let post: Post;

  beforeAll(async () => {
    alice = await story.api.user({ userName: 'alice_md' });
    author = await story.api.user({ userName: 'mdwriter' });
    post = await story.api.post(author, { title: 'Typed greetings', desc: DESC, body: BODY });
  });

  it('shows the desc with inline code, a link and a mention, and hostile text as text', async () => {
    const page = await story.open(`/posts/${post._id}`);
    const dialogs = watchDialogs(page);
    await openPost(page, post);
    const article = page.getByRole('article');
    expect(await article.locator('code', { hasText: 'npm run build' }).first().isVisible()).toBe(true);
    const docs = article.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/docs');
    expect((await docs.getAttribute('rel'))?.split(' ')).toEqual(
      expect.arrayContaining(['ugc', 'nofollow', 'noopener', 'noreferrer']),
    );
    expect(await article.getByRole('link', { name: '@alice_md' }).getAttribute('href')).toBe(
      `/profile/${alice.user._id}`,
    );
    await article.getByText(HOSTILE, { exact: false }).first().waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('shows the body: a heading with an anchor, a table, a task list, a quote and highlighted code', async () => {
    const page = await story.open(`/posts/${post._id}`);
    await openPost(page, post);
    const heading = page.getByRole('heading', { name: 'Getting started', level: 2 });
    expect(await heading.getAttribute('id')).toBe('getting-started');
    expect(await page.getByRole('link', { name: 'Link to the section: Getting started' }).getAttribute('href')).toBe(
      '#getting-started',
    );
    const table = page.getByRole('table');
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Step', 'Command', 'Seconds']);
    expect(await table.getByRole('cell', { name: '42' }).evaluate((cell) => getComputedStyle(cell).textAlign)).toBe(
      'right',
    );
    expect(await page.getByRole('checkbox', { name: /write the code/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /write the tests/ }).isChecked()).toBe(false);
    await page.locator('blockquote').getByText('Measure before you optimise.').waitFor();

    const ts = page.getByRole('group', { name: 'Code (typescript)' });
    expect(await ts.locator('code').textContent()).toBe(`${TS_CODE}\n`);
    const keyword = ts.locator('.hljs-keyword').first();
    expect(await keyword.textContent()).toBe('interface');
    // Highlighted as a reader sees it: the keyword's colour is not the code's plain colour.
    const [keywordColor, plainColor] = await keyword.evaluate((element) => [
      getComputedStyle(element).color,
      getComputedStyle(element.closest('pre') as Element).color,
    ]);
    expect(keywordColor).not.toBe(plainColor);
    const python = page.getByRole('group', { name: 'Code (python)' });
    expect(await python.locator('.hljs-keyword').first().textContent()).toBe('def');
    expect(await python.locator('.hljs-string').first().textContent()).toBe('"""Adds the prices."""');
  });

  it('copies a code block with its Copy button, by mouse and by keyboard', async () => {
    const page = await story.open(`/posts/${post._id}`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: story.server.url });
    await openPost(page, post);

    await page.getByRole('button', { name: 'Copy typescript code' }).click();
    await page.getByRole('button', { name: 'Copied typescript code' }).waitFor();
    expect(await clipboardText(page)).toBe(`${TS_CODE}\n`);
    await page.getByRole('status').filter({ hasText: 'Code copied to the clipboard' }).waitFor();

    // The keyboard: from the TypeScript block (it scrolls, so it takes focus), Tab reaches the
    // next block's Copy button, and Enter copies.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByRole('group', { name: 'Code (typescript)' }).focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused).toBe('Copy python code');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Copied python code' }).waitFor();
    expect(await clipboardText(page)).toBe(`${PY_CODE}\n`);
    // It offers to copy again after a moment.
    await page.getByRole('button', { name: 'Copy python code' }).waitFor();
  });

  it('selects the code when the clipboard cannot be written', async () => {
    const page = await story.open(`/posts/${post._id}`);
    await openPost(page, post);
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    });
    await page.getByRole('button', { name: 'Copy python code' }).click();
    await page.getByRole('button', { name: /^Selected python code/ }).waitFor();
    // Chromium leaves the block's last line break out of the selection's text.
    expect((await page.evaluate(() => window.getSelection()?.toString()))?.trimEnd()).toBe(PY_CODE);
  });

  it('opens a mentioned profile inside the app, without reloading the page', async () => {
    const page = await story.open(`/posts/${post._id}`);
    await openPost(page, post);
    await page.evaluate(() => {
      (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
    });
    await page.getByRole('article').getByRole('link', { name: '@alice_md' }).click();
    await page.waitForURL(`**/profile/${alice.user._id}`);
    await page.locator('.profile-header').getByText('alice_md').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(
      true,
    );
  });

  it('shows a comment’s code fence as a highlighted code block, and hostile text as text', async () => {
    const commented = await story.api.post(author, { title: 'A question', desc: 'Why?' });
    await story.api.comment(alice, commented._id, `Try this:\n\n\`\`\`js\nconsole.log("hi");\n\`\`\`\n\n${HOSTILE}`);
    const page = await story.open(`/posts/${commented._id}`);
    const dialogs = watchDialogs(page);
    const comment = page.locator('li.comment').first();
    const block = comment.getByRole('group', { name: 'Code (javascript)' });
    await block.waitFor();
    expect(await block.locator('code').textContent()).toBe('console.log("hi");\n');
    expect(await block.locator('.hljs-string').textContent()).toBe('"hi"');
    await comment.getByText(HOSTILE).waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await story.screenshot(page, 'markdown-comment-light');
  });

  it('makes a link in a notice clickable', async () => {
    await story.api.notice(author, { desc: 'Slides are at https://example.com/slides for **everyone**.' });
    const page = await story.open('/notices');
    await page.route('https://example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Slides</title>' }),
    );
    const notice = page.getByRole('article').filter({ hasText: 'Slides are at' });
    const link = notice.getByRole('link', { name: 'https://example.com/slides' });
    await link.waitFor();
    expect(await notice.locator('strong', { hasText: 'everyone' }).count()).toBe(1);
    await link.click();
    await page.waitForURL('https://example.com/slides');
  });

  it('shows the desc as Markdown on the feed’s cards', async () => {
    const page = await story.open('/');
    const card = page.getByRole('article').filter({ hasText: 'Typed greetings' });
    await card.locator('code', { hasText: 'npm run build' }).waitFor();
    expect(await card.getByRole('link', { name: '@alice_md' }).getAttribute('href')).toBe(`/profile/${alice.user._id}`);
    // The body is the post page's: the card shows the summary only.
    expect(await card.getByRole('heading', { name: 'Getting started' }).count()).toBe(0);
    await story.screenshot(page, 'markdown-cards-light');
  });

  it('passes the accessibility checks on the post page in both themes, and fits a phone', async () => {
    const light = await story.open(`/posts/${post._id}`, { session: alice });
    await openPost(light, post);
    await settled(light);
    await expectNoSeriousViolations(light, 'post with Markdown, light');
    await story.screenshot(light, 'markdown-post-light');

    const night = await story.open(`/posts/${post._id}`, { session: dark(alice) });
    await openPost(night, post);
    await settled(night);
    expect(await night.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    await expectNoSeriousViolations(night, 'post with Markdown, dark');
    await story.screenshot(night, 'markdown-post-dark');

    const phone = await story.open(`/posts/${post._id}`, { session: dark(alice), viewport: PHONE });
    await openPost(phone, post);
    await settled(phone);
    // The long line of code scrolls inside its block; the page itself never scrolls sideways.
    expect(await scrollsSideways(phone)).toBe(false);
    const longBlock = phone.getByRole('group', { name: 'Code (javascript)' });
    expect(await longBlock.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await expectNoSeriousViolations(phone, 'post with Markdown, dark, phone');
    await story.screenshot(phone, 'markdown-post-phone-dark');
  });
});
