import { readFileSync } from 'node:fs';
import type { CommentsReply, PostReply } from '@techit/contract/api-types';
import type { Locator, Page } from 'playwright-core';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import type { Session } from '../support/api-helper';
import { PHONE, useStory } from '../support/browser';
import { apiPath, failRequests, holdRequests } from '../support/failing-requests';
import { pngFile } from '../support/images';

/*
 * Issue 16's editor: Markdown written with the toolbar, its shortcuts and a pasted picture, the
 * Preview tab showing exactly what is published, a reply with code, and an upload that fails.
 */

function dark(session: Session): Session {
  return { ...session, user: { ...session.user, theme: 'dark' } };
}

/** Pastes a file into `box` as the browser does when a picture is on the clipboard. */
async function pasteFile(box: Locator, file: { name: string; type: string; base64: string }): Promise<void> {
  await box.evaluate((element, { name, type, base64 }) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const clipboardData = new DataTransfer();
    clipboardData.items.add(new File([bytes], name, { type }));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  }, file);
}

/** Drops a file onto `box` as the browser does when one is dragged from the desktop. */
async function dropFile(box: Locator, file: { name: string; type: string; base64: string }): Promise<void> {
  await box.evaluate((element, { name, type, base64 }) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const dataTransfer = new DataTransfer();
    dataTransfer.items.add(new File([bytes], name, { type }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      element.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true }));
    }
  }, file);
}

async function pngToPaste(name: string) {
  return { name, type: 'image/png', base64: readFileSync(await pngFile(name, '#d14f2f', 320, 200)).toString('base64') };
}

/** Selects `text` (its first occurrence) in the focused textarea. */
async function select(box: Locator, text: string): Promise<void> {
  await box.evaluate((element: HTMLTextAreaElement, word) => {
    element.focus();
    const at = element.value.indexOf(word);
    element.setSelectionRange(at, at + word.length);
  }, text);
}

/** The post the create page just published, as GET /api/posts/:id answers it. */
async function publish(page: Page): Promise<string> {
  const created = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/createpost' && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const reply = (await (await created).json()) as PostReply;
  await page.getByText('Created post successfully').waitFor();
  return reply.post._id;
}

describe('The Markdown editor', () => {
  const story = useStory();

  it('writes a post with bold, a code block and a pasted picture, and publishes it', async () => {
    const member = await story.api.user({ userName: 'md_writer' });
    const page = await story.open('/createpost', { session: member });
    await page.getByRole('textbox', { name: 'Title' }).fill('Typed in Markdown');
    await page.getByLabel('Description').fill('A post with a body');

    const body = page.getByLabel('Body (optional)');
    await body.fill('Make this word strong');
    await select(body, 'word');
    await page.keyboard.press('Control+b');
    expect(await body.inputValue()).toBe('Make this **word** strong');
    // The word stays selected inside the marks, to go on formatting or type over it.
    expect(
      await body.evaluate((element: HTMLTextAreaElement) =>
        element.value.slice(element.selectionStart, element.selectionEnd),
      ),
    ).toBe('word');
    // One step of the textarea's own undo, and redo.
    await page.keyboard.press('Control+z');
    expect(await body.inputValue()).toBe('Make this word strong');
    await page.keyboard.press('Control+Shift+z');
    expect(await body.inputValue()).toBe('Make this **word** strong');

    // A code block from the toolbar, on a line of its own, its placeholder selected to type over.
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.locator('.md-editor').filter({ has: body }).getByRole('button', { name: 'Code block' }).click();
    await page.keyboard.type('const answer = 42;');
    expect(await body.inputValue()).toBe('Make this **word** strong\n```\nconst answer = 42;\n```');

    // A picture pasted at the end: a placeholder while it uploads, then its Markdown.
    await body.evaluate((element: HTMLTextAreaElement) => {
      element.focus();
      element.setSelectionRange(element.value.length, element.value.length);
    });
    await page.keyboard.press('Enter');
    const uploads = await holdRequests(page, apiPath('/upload'));
    await pasteFile(body, await pngToPaste('diagram.png'));
    await uploads.arrived;
    expect(await body.inputValue()).toMatch(/```\n!\[Uploading diagram…\]\(\)$/);
    await uploads.release();
    await page.waitForFunction(
      (element) => /```\n!\[diagram\]\(\/uploads\/[^)\s]+\)$/.test((element as HTMLTextAreaElement).value),
      await body.elementHandle(),
    );
    const source = await body.inputValue();

    const postId = await publish(page);
    const { post } = await story.api.request<PostReply>('GET', `/posts/${postId}`);
    expect(post.body).toBe(source);
    expect(post.bodyHtml).toContain('<strong>word</strong>');
    expect(post.bodyHtml).toMatch(
      /<img [^>]*src="\/uploads\/[^"]+"[^>]*alt="diagram"|alt="diagram"[^>]*src="\/uploads\//,
    );
  });

  it('previews exactly what is published, in both tabs without an accessibility fault', async () => {
    const member = await story.api.user({ userName: 'md_previewer' });
    const page = await story.open('/createpost', { session: member });
    await page.getByRole('textbox', { name: 'Title' }).fill('Preview is the page');
    await page.getByLabel('Description').fill('Short, with `inline code` and a link: https://example.com');
    const body = page.getByLabel('Body (optional)');
    const source = [
      '## Setting up',
      '',
      'Run this, then read the [docs](https://example.com/docs) or ask @md_previewer:',
      '',
      '```ts',
      'export function add(a: number, b: number): number {',
      '  return a + b; // <script>alert(1)</script>',
      '}',
      '```',
      '',
      '| Step | Done |',
      '| ---- | ---- |',
      '| one  | ~~no~~ yes |',
      '',
      '- [x] written',
      '- [ ] published',
    ].join('\n');
    await body.fill(source);
    await settled(page);
    await expectNoSeriousViolations(page, 'create page, Write tabs');

    const bodyEditor = page.locator('.md-editor').filter({ has: body });
    const bodyPreview = bodyEditor.getByRole('tabpanel').and(bodyEditor.locator('.md-preview'));
    const previewReply = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/preview' &&
        (response.request().postDataJSON() as { kind?: string }).kind === 'post',
    );
    await bodyEditor.getByRole('tab', { name: 'Preview' }).click();
    const { html: previewHtml } = (await (await previewReply).json()) as { html: string };
    await bodyPreview.locator('.markdown-body pre code').waitFor();
    expect(await bodyEditor.getByRole('tab', { name: 'Preview' }).getAttribute('aria-selected')).toBe('true');
    expect(await body.isVisible()).toBe(false);
    // What the reader sees: the server's HTML as the shared component shows it (copy buttons, scroll boxes).
    const previewed = await bodyPreview.locator('.markdown-content').innerHTML();
    expect(previewed).toContain('hljs-keyword');
    expect(previewed).not.toContain('<script>');

    const descEditor = page.locator('.md-editor').filter({ has: page.getByLabel('Description') });
    await descEditor.getByRole('tab', { name: 'Preview' }).click();
    const descPreview = descEditor.locator('.md-preview .markdown-content');
    await descPreview.waitFor();
    const descPreviewed = await descPreview.innerHTML();
    await settled(page);
    await expectNoSeriousViolations(page, 'create page, Preview tabs');
    await story.screenshot(page, 'editor-create-preview-light');

    // Back to Write: the text, as typed.
    await bodyEditor.getByRole('tab', { name: 'Write' }).click();
    expect(await body.inputValue()).toBe(source);

    const postId = await publish(page);
    const { post } = await story.api.request<PostReply>('GET', `/posts/${postId}`);
    // Both as the browser reads them (it writes `disabled=""` back for `disabled`).
    const asParsed = (html: string) =>
      page.evaluate((markup) => {
        const element = document.createElement('div');
        element.innerHTML = markup;
        return element.innerHTML;
      }, html);
    expect(post.bodyHtml).toContain('<pre');
    // The preview is the very rendering that was stored…
    expect(await asParsed(post.bodyHtml ?? '')).toBe(await asParsed(previewHtml));
    // …and the published page shows it exactly as the preview did.
    await page.goto(`/posts/${postId}`);
    const article = page.locator('.post-body .markdown-content');
    await article.locator('pre code').first().waitFor();
    expect(await article.innerHTML()).toBe(previewed);
    expect(await page.locator('.post-desc .markdown-content').first().innerHTML()).toBe(descPreviewed);
  });

  it('says "Nothing to preview" for an empty body, and keeps the keyboard in the tabs', async () => {
    const member = await story.api.user();
    const page = await story.open('/createpost', { session: member });
    const body = page.getByLabel('Body (optional)');
    const bodyEditor = page.locator('.md-editor').filter({ has: body });
    const write = bodyEditor.getByRole('tab', { name: 'Write' });
    await write.focus();
    await page.keyboard.press('ArrowRight');
    const preview = bodyEditor.getByRole('tab', { name: 'Preview' });
    expect(await preview.evaluate((tab) => tab === document.activeElement)).toBe(true);
    await bodyEditor.getByText('Nothing to preview').waitFor();
    await page.keyboard.press('ArrowLeft');
    expect(await body.isVisible()).toBe(true);
    // From the tabs, Tab reaches the toolbar, then the text.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Bold');
    await story.screenshot(page, 'editor-create-write-light');
  });

  it('replies with a highlighted code block, previewed first', async () => {
    const author = await story.api.user();
    const member = await story.api.user({ userName: 'md_replier' });
    const post = await story.api.post(author, { title: 'Ask for code', desc: 'Show me' });
    const page = await story.open(`/posts/${post._id}`, { session: member });
    await page.getByRole('heading', { level: 1, name: 'Ask for code' }).waitFor();

    // The real form (the stand-in's tabs are a picture of them).
    const previewTab = page.getByRole('tab', { name: 'Preview' });
    await previewTab.waitFor();
    const box = page.getByLabel('Add a comment');
    await box.fill('Like this:\n\n```ts\nconst total: number = items.length;\n```\nNote the type');
    await select(box, 'Note');
    await page.keyboard.press('Control+i');
    expect(await box.inputValue()).toMatch(/\n_Note_ the type$/);

    await previewTab.click();
    const highlighted = page.locator('.md-preview .markdown-body pre code .hljs-keyword').first();
    await highlighted.waitFor();
    expect(await highlighted.innerText()).toBe('const');
    await story.screenshot(page, 'editor-comment-preview-light');

    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByRole('heading', { name: 'Comments (1)' }).waitFor();
    // Back to an empty box, in Write.
    await box.waitFor();
    expect(await box.inputValue()).toBe('');
    const { comments } = await story.api.request<CommentsReply>('GET', `/posts/${post._id}/comments`);
    expect(comments.map((comment) => comment.text)).toEqual([
      'Like this:\n\n```ts\nconst total: number = items.length;\n```\n_Note_ the type',
    ]);
  });

  it('takes the placeholder out and says so when an upload fails; refuses a file that is no picture', async () => {
    const member = await story.api.user();
    const page = await story.open('/createpost', { session: member });
    const body = page.getByLabel('Body (optional)');
    await body.fill('Before the picture ');
    const seen = await body.evaluateHandle((element: HTMLTextAreaElement) => {
      const values: string[] = [];
      element.addEventListener('input', () => values.push(element.value));
      return values;
    });

    const uploads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/upload') uploads.push(request.url());
    });
    await pasteFile(body, { name: 'notes.txt', type: 'text/plain', base64: Buffer.from('hello').toString('base64') });
    await page.getByText('“notes.txt” is not a picture.', { exact: false }).waitFor();
    expect(uploads).toEqual([]);

    await failRequests(page, apiPath('/upload'), 'server-error');
    await body.evaluate((element: HTMLTextAreaElement) => {
      element.focus();
      element.setSelectionRange(element.value.length, element.value.length);
    });
    await pasteFile(body, await pngToPaste('broken.png'));
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Oops, there was an issue while uploading image!' })
      .waitFor();
    expect(await body.inputValue()).toBe('Before the picture ');
    expect(await seen.evaluate((values) => values)).toEqual([
      'Before the picture ![Uploading broken…]()',
      'Before the picture ',
    ]);
    expect(uploads).toHaveLength(1);
  });

  it('looks right in dark and on a phone', async () => {
    const member = await story.api.user();
    const page = await story.open('/createpost', { session: dark(member) });
    await page.getByLabel('Body (optional)').fill('## Dark\n\n```sh\nnpm start # runs it\n```');
    await story.screenshot(page, 'editor-create-write-dark');
    await page.locator('.md-editor').nth(1).getByRole('tab', { name: 'Preview' }).click();
    await page.locator('.md-preview .markdown-body pre').waitFor();
    await story.screenshot(page, 'editor-create-preview-dark');

    const phone = await story.open('/createpost', { session: member, viewport: PHONE });
    await phone.getByLabel('Body (optional)').fill('On a **phone**:\n\n```js\nconsole.log("hi");\n```');
    await story.screenshot(phone, 'editor-create-write-phone');
    await phone.locator('.md-editor').nth(1).getByRole('tab', { name: 'Preview' }).click();
    await phone.locator('.md-preview .markdown-body pre').waitFor();
    await settled(phone);
    await expectNoSeriousViolations(phone, 'create page on a phone, Preview tab');
    await story.screenshot(phone, 'editor-create-preview-phone');
  });

  it('previews a notice with the notice set, as it is published', async () => {
    const member = await story.api.user();
    const page = await story.open('/createpost', { session: member });
    await page.getByRole('radiogroup', { name: 'What to create' }).getByText('Notice', { exact: true }).click();
    const desc = page.getByLabel('Description');
    await desc.fill('Meetup moved: run `npm start` first.\n\n## Not a heading here');
    const previews = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/preview' && request.method() === 'POST',
    );
    await page.getByRole('tab', { name: 'Preview' }).click();
    expect((await previews).postDataJSON()).toEqual({
      markdown: 'Meetup moved: run `npm start` first.\n\n## Not a heading here',
      kind: 'notice',
    });
    const preview = page.locator('.md-preview .markdown-body');
    await preview.locator('code').waitFor();
    expect(await preview.locator('code').innerText()).toBe('npm start');
    // The small set has no headings.
    expect(await preview.locator('h2').count()).toBe(0);
  });

  it('uploads a picture dropped on the body; the description takes none', async () => {
    const member = await story.api.user();
    const page = await story.open('/createpost', { session: member });
    const body = page.getByLabel('Body (optional)');
    await body.fill('Dropped: ');
    await body.evaluate((element: HTMLTextAreaElement) => {
      element.focus();
      element.setSelectionRange(element.value.length, element.value.length);
    });
    await dropFile(body, await pngToPaste('photo.png'));
    await page.waitForFunction(
      (element) => /^Dropped: !\[photo\]\(\/uploads\/[^)\s]+\)$/.test((element as HTMLTextAreaElement).value),
      await body.elementHandle(),
    );

    const desc = page.getByLabel('Description');
    await desc.fill('Short');
    await pasteFile(desc, await pngToPaste('nope.png'));
    await page.getByText('Pictures can only go in a post’s body.').waitFor();
    expect(await desc.inputValue()).toBe('Short');
  });

  it('counts against the limit: a warning near it, an error over it', async () => {
    const member = await story.api.user();
    const page = await story.open('/createpost', { session: member });
    const desc = page.getByLabel('Description');
    const counter = page.locator('.md-editor').filter({ has: desc }).locator('.md-count');
    await desc.fill('x'.repeat(359));
    expect(await counter.getAttribute('class')).toBe('md-count');
    await desc.fill('x'.repeat(360));
    expect(await counter.innerText()).toBe('360 / 400');
    expect(await counter.getAttribute('class')).toBe('md-count is-near');
    await desc.fill('x'.repeat(401));
    expect(await counter.getAttribute('class')).toBe('md-count is-over');
    await page.getByRole('textbox', { name: 'Title' }).fill('Too long');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.getByText('Description must be at most 400 characters').waitFor();
    await story.screenshot(page, 'editor-create-over-limit-light');
  });

  it('edits a post’s body: the page opens with it, and saves the change', async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, {
      title: 'Has a body',
      desc: 'Edit me',
      category: 'Informative',
      body: '## Before\n\nfirst version',
    });
    const page = await story.open(`/editpost/${post._id}`, { session: author });
    const body = page.getByLabel('Body (optional)');
    await body.waitFor();
    expect(await body.inputValue()).toBe('## Before\n\nfirst version');
    await select(body, 'first');
    await page.keyboard.press('Control+e');
    expect(await body.inputValue()).toBe('## Before\n\n`first` version');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname === `/posts/${post._id}`);
    const { post: saved } = await story.api.request<PostReply>('GET', `/posts/${post._id}`);
    expect(saved.body).toBe('## Before\n\n`first` version');
    expect(saved.bodyHtml).toContain('<code>first</code>');
  });
});
