import type { Locator, Page } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { PHONE, useStory } from '../support/browser';
import { settledConfirm } from '../support/dialogs';
import { expectNoSeriousViolations, settled } from '../support/accessibility';
import { scrollsSideways } from '../support/appearance';

/** The page size of a thread on the post page (COMMENT_PAGE.defaultSize in the contract). */
const PAGE = 50;

function dark(session: Session): Session {
  return { ...session, user: { ...session.user, theme: 'dark' } };
}

/** The comment element a permalink points at (id="comment-<id>"). */
function commentEl(page: Page, commentId: string): Locator {
  return page.locator(`[id="comment-${commentId}"]`);
}

/** Waits until the element is wholly inside the viewport. */
async function waitUntilInView(page: Page, id: string): Promise<void> {
  await page.waitForFunction(
    (elementId) => {
      const element = document.getElementById(elementId);
      if (!element) return false;
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
    },
    id,
    { timeout: 20_000 },
  );
}

/** The label a focused field is named by (its <label for>), or null when focus is not in a field. */
function focusedFieldLabel(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!(active instanceof HTMLTextAreaElement) || !active.id) return null;
    return document.querySelector(`label[for="${active.id}"]`)?.textContent ?? null;
  });
}

function focusedName(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
}

describe('Threaded comments', () => {
  const story = useStory();

  it('replies to a comment and sees it nested, edits it (marked edited), and a deleted comment with replies stays as "[deleted]"', async () => {
    const author = await story.api.user({ userName: 'thread_author' });
    const member = await story.api.user({ userName: 'thread_member' });
    const post = await story.api.post(author, { title: 'Replies in place', desc: 'Talk to each other' });
    await story.api.comment(member, post._id, 'A first thought');
    const firstId = await story.api.commentId(post._id, 'A first thought');

    const page = await story.open(`/posts/${post._id}`, { session: author });
    const first = commentEl(page, firstId);
    await first.getByText('A first thought').waitFor();
    await first.getByRole('button', { name: 'Reply to thread_member' }).click();
    const box = page.getByLabel('Your reply to thread_member');
    await box.waitFor();
    await page.waitForFunction(() => document.activeElement instanceof HTMLTextAreaElement);
    expect(await focusedFieldLabel(page)).toBe('Your reply to thread_member');
    await box.fill('An answer, nested');
    await page.getByRole('button', { name: 'Post reply' }).click();

    // Nested: inside the first comment's replies, and the box is gone.
    const replies = first.getByRole('list', { name: 'Replies to thread_member' });
    const nested = replies.getByRole('listitem').filter({ hasText: 'An answer, nested' });
    await nested.waitFor();
    // Found by its id from now on: its text changes.
    const reply = page.locator(`[id="${(await nested.getAttribute('id')) ?? ''}"]`);
    await box.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Comments (2)' }).waitFor();

    // Edited in place by its author; the mark says when.
    await reply.getByRole('button', { name: 'Edit your comment' }).click();
    const editBox = page.getByLabel('Your comment', { exact: true });
    await page.waitForFunction(() => document.activeElement instanceof HTMLTextAreaElement);
    expect(await focusedFieldLabel(page)).toBe('Your comment');
    expect(await editBox.inputValue()).toBe('An answer, nested');
    await editBox.fill('An answer, **edited**');
    await page.getByRole('button', { name: 'Save' }).click();
    await reply.locator('strong', { hasText: 'edited' }).waitFor();
    const mark = reply.getByText('· edited');
    expect(await mark.getAttribute('title')).toMatch(/^Edited /);
    // Only the author edits: not the other person's comment.
    expect(
      await first.locator(':scope > .comment-main').getByRole('button', { name: 'Edit your comment' }).count(),
    ).toBe(0);
    await story.screenshot(page, 'comment-threads-reply-light');

    // The post's author deletes the comment that has a reply: its place stays for the reply.
    await first.getByRole('button', { name: 'Delete comment by thread_member' }).click();
    const dialog = await settledConfirm(page, 'Are you sure you want to delete this comment?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    // Gone, not fading out: the accessibility check below would read the half-faded dialog's
    // colours (seen under CI load).
    await dialog.waitFor({ state: 'hidden' });
    await first.locator(':scope > .comment-main').getByText('[deleted]').waitFor();
    await page.getByRole('heading', { name: 'Comments (1)' }).waitFor();
    expect(await first.getByText('A first thought').count()).toBe(0);
    expect(await first.locator(':scope > .comment-main').getByRole('img').count()).toBe(0);
    expect(await first.locator(':scope > .comment-main').getByRole('button').count()).toBe(0);
    expect(await reply.getByText('An answer, edited').isVisible()).toBe(true);
    await expectNoSeriousViolations(page, 'comment thread with a deleted comment');
    await story.screenshot(page, 'comment-threads-deleted-light');
  });

  it('nests 6 levels on a large screen and 3 on a phone, the rest behind "Continue this thread", which opens the subthread', async () => {
    const author = await story.api.user();
    const member = await story.api.user();
    const post = await story.api.post(author, { title: 'A deep conversation', desc: 'Eight levels' });
    await story.api.comment(author, post._id, 'Level 1');
    const ids = [await story.api.commentId(post._id, 'Level 1')];
    for (let level = 2; level <= 8; level += 1) {
      const who = level % 2 === 0 ? member : author;
      ids.push(await story.api.reply(who, post._id, ids[ids.length - 1] ?? '', `Level ${level}`));
    }

    for (const [name, session, viewport, depth] of [
      ['light', author, undefined, 6],
      ['dark', dark(author), undefined, 6],
      ['phone', author, PHONE, 3],
    ] as const) {
      const page = await story.open(`/posts/${post._id}`, { session, viewport });
      await page.getByText(`Level ${depth}`, { exact: true }).waitFor();
      expect(await page.getByText(`Level ${depth + 1}`, { exact: true }).count()).toBe(0);
      const shown = ids[depth - 1] ?? '';
      const more = commentEl(page, shown).getByRole('link', { name: /^Continue this thread/ });
      expect(await more.textContent()).toContain(`(${8 - depth} replies)`);
      expect(await scrollsSideways(page)).toBe(false);
      await story.screenshot(page, `comment-threads-depth-${name}`);

      await more.click();
      await page.waitForURL(`**/posts/${post._id}?thread=${shown}`);
      // The subthread starts at the comment whose replies were hidden, nested as deep again.
      const deepest = Math.min(8, 2 * depth - 1);
      await page.getByText(`Level ${deepest}`, { exact: true }).waitFor();
      expect(await page.getByText(`Level ${depth - 1}`, { exact: true }).count()).toBe(0);
      expect(await page.getByText(`Level ${depth}`, { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText(`Level ${deepest + 1}`, { exact: true }).count()).toBe(0);
      await story.screenshot(page, `comment-threads-continue-${name}`);
      // No box for a top-level comment here, where it would not show; replies still work in place.
      expect(await page.getByLabel('Add a comment').count()).toBe(0);
      if (name === 'light') {
        // The post's Comment button leads back to the whole conversation, its box focused.
        await page.getByRole('button', { name: /^Comments \(/ }).click();
        await page.waitForURL((url) => url.pathname === `/posts/${post._id}` && url.search === '');
        await page.waitForFunction(() => {
          const active = document.activeElement;
          return active instanceof HTMLTextAreaElement && document.querySelector(`label[for="${active.id}"]`) !== null;
        });
        expect(await focusedFieldLabel(page)).toBe('Add a comment');
      } else {
        await page.getByRole('link', { name: '← Back to all comments' }).click();
      }
      await page.getByText('Level 1', { exact: true }).waitFor();
      await page.getByText(`Level ${deepest}`, { exact: true }).waitFor({ state: 'detached' });
    }
  });

  it('replies with the keyboard alone: Tab to Reply, type, Ctrl+Enter; Escape gives up and puts the focus back', async () => {
    const author = await story.api.user();
    const member = await story.api.user({ userName: 'keyboard_member' });
    const post = await story.api.post(author, { title: 'Keyboard replies', desc: 'No mouse' });
    await story.api.comment(author, post._id, 'Answer me by keyboard');
    const commentId = await story.api.commentId(post._id, 'Answer me by keyboard');

    const page = await story.open(`/posts/${post._id}`, { session: member });
    const comment = commentEl(page, commentId);
    await comment.getByText('Answer me by keyboard').waitFor();
    const replyName = `Reply to ${author.user.userName}`;
    const boxName = `Your reply to ${author.user.userName}`;
    // From the comment box, Tab goes through the comment's links and buttons to Reply.
    await page.getByLabel('Add a comment').focus();
    for (let presses = 0; presses < 30 && (await focusedName(page)) !== replyName; presses += 1) {
      await page.keyboard.press('Tab');
    }
    expect(await focusedName(page)).toBe(replyName);
    // The focus is seen.
    expect(await page.evaluate(() => document.activeElement?.matches(':focus-visible'))).toBe(true);

    await page.keyboard.press('Enter');
    await page.getByLabel(boxName).waitFor();
    await page.waitForFunction((label) => {
      const active = document.activeElement;
      return active?.id !== undefined && document.querySelector(`label[for="${active.id}"]`)?.textContent === label;
    }, boxName);
    await page.keyboard.type('Not now');
    await page.keyboard.press('Escape');
    await page.getByLabel(boxName).waitFor({ state: 'detached' });
    expect(await focusedName(page)).toBe(replyName);

    await page.keyboard.press('Enter');
    await page.getByLabel(boxName).waitFor();
    await page.waitForFunction(() => document.activeElement instanceof HTMLTextAreaElement);
    await page.keyboard.type('Typed and sent with the keyboard');
    await page.keyboard.press('Control+Enter');
    await comment
      .getByRole('list', { name: `Replies to ${author.user.userName}` })
      .getByText('Typed and sent with the keyboard')
      .waitFor();
    await page.getByLabel(boxName).waitFor({ state: 'detached' });
    await page.waitForFunction((name) => document.activeElement?.getAttribute('aria-label') === name, replyName);
  });

  it(`opens a permalink to a comment beyond the first ${PAGE} in view and highlighted`, async () => {
    const author = await story.api.user();
    const post = await story.api.post(author, { title: 'A long conversation', desc: 'Sixty comments' });
    for (let i = 1; i <= PAGE + 10; i += 1) await story.api.comment(author, post._id, `Comment number ${i}`);
    const lateId = await story.api.commentId(post._id, `Comment number ${PAGE + 8}`);
    const replyId = await story.api.reply(author, post._id, lateId, 'A reply far down');

    for (const [target, text] of [
      [lateId, `Comment number ${PAGE + 8}`],
      [replyId, 'A reply far down'],
    ] as const) {
      const page = await story.open(`/posts/${post._id}#comment-${target}`);
      const element = commentEl(page, target);
      await element.getByText(text, { exact: true }).waitFor();
      await waitUntilInView(page, `comment-${target}`);
      expect(await element.getAttribute('class')).toContain('is-target');
      // The rest of the long thread is still paged as before.
      expect(await page.getByRole('button', { name: 'Show more comments' }).isVisible()).toBe(true);
      await story.screenshot(page, `comment-threads-permalink-${target === lateId ? 'comment' : 'reply'}`);
    }
  });

  it('suggests users after @ and two letters, picked with the keyboard, in the comment box, the reply box and every editor', async () => {
    const author = await story.api.user({ userName: 'mentioner' });
    await story.api.user({ userName: 'zelda_h4' });
    await story.api.user({ userName: 'zeno_h4' });
    const post = await story.api.post(author, { title: 'Mentions', desc: 'Say hi' });

    for (const [name, session, viewport] of [
      ['light', author, undefined],
      ['dark', dark(author), undefined],
      ['phone', author, PHONE],
    ] as const) {
      const page = await story.open(`/posts/${post._id}`, { session, viewport });
      const box = page.getByLabel('Add a comment');
      await box.click();
      await page.keyboard.type('Hi @ze');
      const list = page.getByRole('listbox', { name: 'Suggested users' });
      await list.getByRole('option', { name: /@zelda_h4/ }).waitFor();
      expect(await list.getByRole('option').count()).toBe(2);
      expect(await box.getAttribute('aria-activedescendant')).toBe(
        await list.getByRole('option').first().getAttribute('id'),
      );
      await page.keyboard.press('ArrowDown');
      expect(await list.getByRole('option', { name: /@zeno_h4/ }).getAttribute('aria-selected')).toBe('true');
      await settled(page);
      await story.screenshot(page, `comment-threads-mention-${name}`);
      await page.keyboard.press('Enter');
      await list.waitFor({ state: 'detached' });
      expect(await box.inputValue()).toBe('Hi @zeno_h4 ');

      // Escape closes the list and leaves the text as typed.
      await page.keyboard.type('and @zel');
      await list.getByRole('option', { name: /@zelda_h4/ }).waitFor();
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'detached' });
      expect(await box.inputValue()).toBe('Hi @zeno_h4 and @zel');
    }

    /** Types into a field, waits for the suggestion and takes it with Tab. */
    const pick = async (page: Page, field: Locator, typed: string, expected: string) => {
      await field.click();
      await page.keyboard.type(typed);
      const list = page.getByRole('listbox', { name: 'Suggested users' });
      await list.getByRole('option', { name: /@zeno_h4/ }).waitFor();
      await page.keyboard.press('Tab');
      await list.waitFor({ state: 'detached' });
      expect(await field.inputValue()).toBe(expected);
    };

    // A reply box.
    await story.api.comment(author, post._id, 'Reply to me');
    const commentId = await story.api.commentId(post._id, 'Reply to me');
    const replyPage = await story.open(`/posts/${post._id}`, { session: author });
    await commentEl(replyPage, commentId).getByRole('button', { name: 'Reply to mentioner' }).click();
    await pick(replyPage, replyPage.getByLabel('Your reply to mentioner'), 'Ask @zen', 'Ask @zeno_h4 ');

    // The post editor: its description and its Markdown body.
    const page = await story.open('/createpost', { session: author });
    await pick(page, page.getByLabel('Description'), 'Thanks @zen', 'Thanks @zeno_h4 ');
    await pick(page, page.getByLabel('Body (optional)'), 'Reviewed by @zen', 'Reviewed by @zeno_h4 ');

    // The notice editor.
    await page.getByRole('radiogroup', { name: 'What to create' }).getByText('Notice', { exact: true }).click();
    await pick(
      page,
      page.getByRole('form', { name: 'Create a notice' }).getByLabel('Description'),
      'Ask @zen',
      'Ask @zeno_h4 ',
    );
  });
});
