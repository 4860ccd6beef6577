import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { useStory } from '../support/browser';

/** A file on disk for a file input to pick. */
function fileOnDisk(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'techit-e2e-file-')), name);
  writeFileSync(path, content);
  return path;
}

/** The form item (label, input, message) that holds the input labelled `label`. */
function formItem(page: Page, label: string): Locator {
  return page.locator('.ant-form-item').filter({ has: page.getByLabel(label, { exact: true }) });
}

/** The message shown next to a field: an alert inside its form item, which the input names as its description. */
async function fieldMessage(page: Page, label: string): Promise<string> {
  const alert = formItem(page, label).getByRole('alert');
  await alert.waitFor();
  const describedBy = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby');
  expect(describedBy).toBe(await alert.getAttribute('id'));
  return alert.innerText();
}

/** The reason shown next to a picker: the text its button names as its description. */
async function pickerMessage(page: Page, label: string, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).waitFor();
  for (const control of [page.locator('button').filter({ hasText: label }), page.getByLabel(label)]) {
    const describedBy = await control.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toContain(text);
  }
}

/** Every request to the upload endpoint the page makes. */
function watchUploads(page: Page): string[] {
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/upload') uploads.push(request.method());
  });
  return uploads;
}

describe('TechIt forms', () => {
  const story = useStory();

  describe('The server says what is wrong next to each field (3.9)', () => {
    it('a sign-up with no name and a short password names both fields at once', async () => {
      const page = await story.open('/signup');
      await page.getByLabel('Email').fill('newcomer@example.com');
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();

      expect(await fieldMessage(page, 'Username')).toBe('Choose a user name.');
      expect(await fieldMessage(page, 'Password')).toBe('The password needs 8 to 128 characters.');
      // Not the raw server text above the form.
      expect(await page.getByText('userName is required').count()).toBe(0);
      await story.screenshot(page, 'forms-signup-fields');
    });

    it('a taken user name is said next to the Username field', async () => {
      await story.api.user({ userName: 'taken_name' });
      const page = await story.open('/signup');
      await page.getByLabel('Username').fill('taken_name');
      await page.getByLabel('Email').fill('someone.else@example.com');
      await page.getByLabel('Password').fill('long enough password');
      await page.getByRole('button', { name: 'Create account' }).click();
      expect(await fieldMessage(page, 'Username')).toBe('That user name is taken; choose another.');
    });
  });

  describe('A picture that is no image is refused with a reason (3.10)', () => {
    it('refuses a text file before uploading, and shows the server reason for a damaged image', async () => {
      const member = await story.api.user();
      const page = await story.open('/createpost', { session: member });
      const uploads = watchUploads(page);
      await page.getByRole('heading', { name: 'Create a post' }).waitFor();

      await page.getByLabel('Choose an image').setInputFiles(fileOnDisk('notes.txt', 'just some notes'));
      await pickerMessage(page, 'Choose an image', '“notes.txt” is not a picture.');
      expect(await page.getByRole('img', { name: 'Preview of the chosen image' }).count()).toBe(0);
      expect(await page.getByText('notes.txt', { exact: true }).count()).toBe(0);

      // Not an image inside, though named like one: the browser draws no preview, the server refuses it.
      await page.getByLabel('Choose an image').setInputFiles(fileOnDisk('broken.png', 'these bytes are no picture'));
      await page.getByText('broken.png', { exact: true }).waitFor();
      await page.getByRole('img', { name: 'Preview of the chosen image' }).waitFor({ state: 'detached' });
      await page.getByRole('textbox', { name: 'Title' }).fill('With a broken picture');
      await page.getByLabel('Description').fill('The picture is not one');
      await page.getByRole('button', { name: 'Post', exact: true }).click();
      await pickerMessage(page, 'Choose an image', 'Only JPEG, PNG, WebP, GIF and AVIF images are accepted');
      expect(uploads).toEqual(['POST']);
      await story.screenshot(page, 'forms-picture-refused');
    });
  });

  describe('Create and edit have the same fields; dates and links say what they are (3.11, 3.13, 3.14)', () => {
    it('creates a post with a category and both links, then changes its category', async () => {
      const member = await story.api.user();
      const page = await story.open('/createpost', { session: member });
      await page.getByRole('heading', { name: 'Create a post' }).waitFor();
      await page.getByRole('textbox', { name: 'Title' }).fill('Engine notes');
      await page.getByLabel('Category (optional)').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'Doubt' }).click();
      await page.getByLabel('Description').fill('How the engine starts');
      await page.getByLabel('Code link (optional)').fill('github.com/ada/engine');
      await page.getByLabel('Demo link (optional)').fill('https://www.example.com/demo');
      await story.screenshot(page, 'forms-create-fields');
      await page.getByRole('button', { name: 'Post', exact: true }).click();
      await page.getByText('Created post successfully').waitFor();

      const card = page.getByRole('article').filter({ hasText: 'Engine notes' });
      await card.getByRole('link', { name: 'Engine notes' }).click();
      await page.waitForURL('**/posts/*');
      const detail = page.getByRole('article');
      await detail.getByText('Doubt', { exact: true }).waitFor();
      const code = detail.getByRole('link', { name: /^Code/ });
      expect(await code.getAttribute('href')).toBe('https://github.com/ada/engine');
      expect(await code.innerText()).toContain('Code · github.com');
      const demo = detail.getByRole('link', { name: /^Demo/ });
      expect(await demo.getAttribute('href')).toBe('https://www.example.com/demo');
      expect(await demo.innerText()).toContain('Demo · example.com');

      // A fresh post: "just now", the exact time on hover or focus, not "edited".
      const time = detail.locator('time').first();
      expect(await time.innerText()).toBe('just now');
      expect(await time.getAttribute('title')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d$/);
      expect(await time.getAttribute('tabindex')).toBe('0');
      expect(await detail.getByText('edited').count()).toBe(0);

      await detail.getByRole('button', { name: 'Edit post: Engine notes' }).click();
      await page.waitForURL('**/editpost/*');
      // The edit form is the spec's: the same fields, the category required (spec section 5).
      await page.getByLabel('Category', { exact: true }).click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'Informative' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL('**/posts/*');
      const saved = page.getByRole('article');
      await saved.getByText('· edited').waitFor();
      await saved.getByText('Informative', { exact: true }).waitFor();
      expect(await saved.getByText('Doubt', { exact: true }).count()).toBe(0);
      expect(await saved.getByRole('link', { name: /^Code/ }).getAttribute('href')).toBe(
        'https://github.com/ada/engine',
      );
      await story.screenshot(page, 'forms-edited-post');
    });

    it('a notice shows where each link goes', async () => {
      const member = await story.api.user();
      await story.api.notice(member, { desc: 'Meetup on Friday', links: ['https://www.meetup.example.org/friday'] });
      const page = await story.open('/notices');
      const link = page.getByRole('link', { name: /^Link 1/ });
      await link.waitFor();
      expect(await link.innerText()).toContain('Link 1 · meetup.example.org');
      expect(await page.getByRole('article').locator('time').first().getAttribute('title')).toMatch(/\d\d:\d\d$/);
    });
  });
});
