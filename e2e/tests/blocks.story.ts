import type { Locator, Page } from 'playwright-core';
import { useStory } from '../support/browser';
import { settledConfirm, settledMenuItem } from '../support/dialogs';

/** A comment of the thread, by its id (its permalink's target). */
function commentEl(page: Page, commentId: string): Locator {
  return page.locator(`[id="comment-${commentId}"]`);
}

function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-notification-notice').filter({ hasText: text });
}

/** The profile's "⋯" menu item `name`, once the menu has settled. */
async function profileMenuItem(page: Page, userName: string, name: string): Promise<Locator> {
  await page.getByRole('button', { name: `More actions for ${userName}` }).click();
  return settledMenuItem(page, name);
}

describe('Blocks and mutes in the web app (issue 20)', () => {
  const story = useStory();

  it("a member blocks a user → that user's reply and comment are refused, with the API's reason, and nothing is posted", async () => {
    const blocker = await story.api.user({ userName: 'block_owner' });
    const pest = await story.api.user({ userName: 'block_pest' });
    const post = await story.api.post(blocker, { title: 'My quiet post', desc: 'Only friends here' });
    await story.api.comment(blocker, post._id, 'The owner speaks first');
    const ownerComment = await story.api.commentId(post._id, 'The owner speaks first');

    // The blocker blocks from the pest's profile: the dialog says what a block does.
    const mine = await story.open(`/profile/${pest.user._id}`, { session: blocker });
    await (await profileMenuItem(mine, 'block_pest', 'Block block_pest')).click();
    const dialog = await settledConfirm(mine, 'Block block_pest?');
    expect(await dialog.innerText()).toMatch(/no longer be able to follow you, comment on or reply to/);
    await dialog.getByRole('button', { name: 'Block' }).click();
    await toast(mine, 'You blocked block_pest').waitFor();
    expect(await story.api.relations(blocker, pest.user._id)).toEqual({ blocks: true, mutes: false });
    // The menu now offers the way back.
    await (await profileMenuItem(mine, 'block_pest', 'Unblock block_pest')).waitFor();

    // The blocked user replies to the blocker's comment: refused with the API's sentence, the
    // typed text kept in the box.
    const page = await story.open(`/posts/${post._id}`, { session: pest });
    const comment = commentEl(page, ownerComment);
    await comment.getByText('The owner speaks first').waitFor();
    await comment.getByRole('button', { name: 'Reply to block_owner' }).click();
    const box = page.getByLabel('Your reply to block_owner');
    await box.fill('Let me in anyway');
    await page.getByRole('button', { name: 'Post reply' }).click();
    const refusal = toast(page, 'Could not post your comment');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/has blocked you: you cannot (reply to|comment on) it/);
    expect(await box.inputValue()).toBe('Let me in anyway');

    // And a comment on the post itself.
    const commentBox = page.getByLabel('Add a comment');
    await commentBox.fill('A comment they will not see');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: "This post's author has blocked you: you cannot comment on it" })
      .waitFor();
    expect(await commentBox.inputValue()).toBe('A comment they will not see');

    // Following the blocker is refused too, the toast saying why; the button stays Follow.
    await page.goto(`/profile/${blocker.user._id}`);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await toast(page, 'This user has blocked you: you cannot follow them').waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    await page.goto(`/posts/${post._id}`);

    // Nothing was posted: a reload shows the thread as it was.
    await page.reload();
    await page.getByText('The owner speaks first').waitFor();
    await page.getByRole('heading', { name: 'Comments (1)' }).waitFor();
    expect(await page.getByText('Let me in anyway').count()).toBe(0);
    expect(await page.getByText('A comment they will not see').count()).toBe(0);
  });

  it('mute folds their comment behind "show" and leaves their post out of the feed; unblock and unmute from the settings lists', async () => {
    const reader = await story.api.user({ userName: 'mute_reader' });
    const loud = await story.api.user({ userName: 'mute_loud' });
    await story.api.post(loud, { title: 'A very loud post', desc: 'Look at me' });
    const own = await story.api.post(reader, { title: 'A calm post', desc: 'Thoughts' });
    await story.api.comment(loud, own._id, 'A loud comment');
    const loudComment = await story.api.commentId(own._id, 'A loud comment');
    const answer = await story.api.reply(reader, own._id, loudComment, 'My answer to the loud one');

    const page = await story.open(`/profile/${loud.user._id}`, { session: reader });
    await (await profileMenuItem(page, 'mute_loud', 'Mute mute_loud')).click();
    await toast(page, 'You muted mute_loud').waitFor();

    // Following them keeps the menu in place (the cached profile keeps the reader's viewer field
    // while the follower count changes): it is never taken off the page and drawn again.
    await page.evaluate(() => {
      const state = window as unknown as { menuLeft?: boolean };
      state.menuLeft = false;
      const menu = document.querySelector('[aria-label="More actions for mute_loud"]');
      new MutationObserver(() => {
        if (menu && !menu.isConnected) state.menuLeft = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    const refetched = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === `/api/user/${loud.user._id}` && response.request().method() === 'GET',
    );
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: 'Unfollow' }).waitFor();
    await refetched;
    await (await profileMenuItem(page, 'mute_loud', 'Unmute mute_loud')).waitFor();
    expect(await page.evaluate(() => (window as unknown as { menuLeft?: boolean }).menuLeft)).toBe(false);
    await page.keyboard.press('Escape');

    // The feed leaves their post out.
    await page.goto('/');
    const feed = page.getByRole('feed');
    await feed.getByRole('heading', { name: 'A calm post' }).waitFor();
    expect(await feed.getByRole('heading', { name: 'A very loud post' }).count()).toBe(0);

    // Their comment is folded; the reply under it stays in reach; "show" unfolds it.
    await page.goto(`/posts/${own._id}`);
    const folded = commentEl(page, loudComment);
    await folded.getByText('Comment by a muted user').waitFor();
    expect(await folded.getByText('A loud comment').count()).toBe(0);
    await commentEl(page, answer).getByText('My answer to the loud one').waitFor();
    await folded.getByRole('button', { name: 'show' }).click();
    await folded.getByText('A loud comment').waitFor();
    await folded.getByRole('link', { name: 'mute_loud' }).waitFor();

    // Blocked too (through the API); the settings page lists both, and undoes both.
    await story.api.block(reader, loud.user._id);
    await page.goto('/settings');
    const blocked = page.getByRole('list', { name: 'Blocked users' });
    await blocked.getByRole('link', { name: 'mute_loud' }).waitFor();
    await blocked.getByRole('button', { name: 'Unblock mute_loud' }).click();
    await page.getByText('You block nobody.').waitFor();
    const muted = page.getByRole('list', { name: 'Muted users' });
    await muted.getByRole('button', { name: 'Unmute mute_loud' }).click();
    await page.getByText('You mute nobody.').waitFor();
    expect(await story.api.relations(reader, loud.user._id)).toEqual({ blocks: false, mutes: false });

    // Unmuted: the post is back in the feed.
    await page.goto('/');
    await page.getByRole('feed').getByRole('heading', { name: 'A very loud post' }).waitFor();
  });
});
