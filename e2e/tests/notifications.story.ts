import type { Post } from '@techit/contract/api-types';
import { NOTIFICATIONS } from '@techit/contract/limits';
import type { Page, Request } from 'playwright-core';
import type { Session } from '../support/api-helper';
import { seenTheme, scrollsSideways } from '../support/appearance';
import { PHONE, useStory } from '../support/browser';

const STREAM = '/api/notifications/stream';
const UNREAD_COUNT = '/api/notifications/unread-count';

/** Every request the page sends to one API path, in order. */
function watchRequests(page: Page, path: string): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) sent.push(request);
  });
  return sent;
}

/** The bell of the bar that shows at this width, by its whole name ("Notifications, 2 unread"). */
function bell(page: Page, name: string) {
  return page.locator('.left-nav, .bottom-nav').getByRole('link', { name, exact: true }).locator('visible=true');
}

/** Waits until the element with this id is wholly inside the viewport. */
async function waitUntilInView(page: Page, id: string): Promise<void> {
  await page.waitForFunction((elementId) => {
    const element = document.getElementById(elementId);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  }, id);
}

/** Pretends the tab was hidden or shown again, as the browser tells a page (document.hidden and the event). */
async function setTabHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

describe('A member learns at once that someone replied, liked or followed', () => {
  const story = useStory();

  async function twoMembers(): Promise<{ ada: Session; bob: Session; post: Post; adaComment: string }> {
    const ada = await story.api.user();
    const bob = await story.api.user();
    const post = await story.api.post(ada, { title: 'Ada asks about threads', desc: 'How deep should replies go?' });
    await story.api.comment(ada, post._id, 'Six levels, I think');
    return { ada, bob, post, adaComment: await story.api.commentId(post._id, 'Six levels, I think') };
  }

  it('B replies to A’s comment and mentions A; A’s bell counts it live, and the notification leads to the reply', async () => {
    const { ada, bob, post, adaComment } = await twoMembers();
    // Watched from before the app starts: it opens the stream as soon as it runs.
    const adaPage = await story.open('/api/health', { session: ada });
    const streams = watchRequests(adaPage, STREAM);
    await adaPage.goto('/');
    await bell(adaPage, 'Notifications').waitFor();
    // Proof that nothing reloads the page: a mark a reload would wipe.
    await adaPage.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));

    // B, in a browser of their own, replies to A's comment and names A in it: one notification (a reply).
    const bobPage = await story.open(`/posts/${post._id}`, { session: bob });
    const replyText = `@${ada.user.userName} six is plenty`;
    await bobPage
      .locator(`[id="comment-${adaComment}"]`)
      .getByRole('button', { name: `Reply to ${ada.user.userName}` })
      .click();
    const box = bobPage.getByRole('textbox', { name: `Your reply to ${ada.user.userName}` });
    await box.fill(replyText);
    await bobPage.getByRole('button', { name: 'Post reply' }).click();
    await box.waitFor({ state: 'detached' });
    const reply = await story.api.commentId(post._id, replyText);

    await bell(adaPage, 'Notifications, 1 unread').waitFor();
    expect(await adaPage.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    // It came over the stream, with the login token in a header and not in the address.
    expect(streams.length).toBeGreaterThan(0);
    expect(streams[0].url()).not.toContain(ada.token);
    expect(await streams[0].headerValue('authorization')).toBe(`Bearer ${ada.token}`);

    await bell(adaPage, 'Notifications, 1 unread').click();
    await adaPage.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    const item = adaPage.getByRole('link', {
      name: new RegExp(`Unread: ${bob.user.userName} replied to your comment`),
    });
    await item.waitFor();
    await story.screenshot(adaPage, 'notifications-page-light');
    await item.click();
    await adaPage.waitForURL((url) => url.pathname === `/posts/${post._id}` && url.hash === `#comment-${reply}`);
    // The post page opens with the reply in view (its permalink's target).
    await waitUntilInView(adaPage, `comment-${reply}`);
    await story.screenshot(adaPage, 'notifications-landed-on-reply');
    // Opened means read: the bell has nothing left to count.
    await bell(adaPage, 'Notifications').waitFor();
  });

  it('names the actors, groups the likes of a post, and "Mark all read" clears the badge', async () => {
    const { ada, bob, post } = await twoMembers();
    const cy = await story.api.user();
    const dee = await story.api.user();
    await story.api.like(bob, post._id);
    await story.api.like(cy, post._id);
    await story.api.like(dee, post._id);
    await story.api.follow(dee, ada.user._id);
    await story.api.comment(cy, post._id, 'Three at most');

    const page = await story.open('/notifications', { session: ada });
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByText(`${dee.user.userName} and 2 others`).waitFor();
    await list.getByText(`${dee.user.userName} followed you`).waitFor();
    await list.getByText(`${cy.user.userName} commented on your post`).waitFor();
    await bell(page, 'Notifications, 3 unread').waitFor();
    // Each item leads to what it is about.
    expect(await list.getByRole('link', { name: /followed you/ }).getAttribute('href')).toBe(
      `/profile/${dee.user._id}`,
    );
    expect(await list.getByRole('link', { name: /liked your post/ }).getAttribute('href')).toBe(`/posts/${post._id}`);
    expect(await list.getByRole('link', { name: /commented on your post/ }).getAttribute('href')).toMatch(
      new RegExp(`^/posts/${post._id}#comment-[0-9a-f]{24}$`),
    );

    // The page marks them read at once (optimistically); the reload below must wait for the server's
    // answer, or it would cancel the request (under load it had not been sent yet).
    const marked = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/notifications/read' && response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Mark all read' }).click();
    expect((await marked).status()).toBe(200);
    await bell(page, 'Notifications').waitFor();
    await page.getByRole('status').getByText('All caught up').waitFor();
    expect(await list.getByText('Unread:').count()).toBe(0);
    // The server agrees: a fresh page shows them read.
    await page.reload();
    await list.getByText(`${dee.user.userName} followed you`).waitFor();
    expect(await list.getByText('Unread:').count()).toBe(0);
    await bell(page, 'Notifications').waitFor();
  });

  it('older notifications come with "Load more", and the button goes with the last page', async () => {
    const { ada, bob, post } = await twoMembers();
    const pageSize = NOTIFICATIONS.defaultLimit;
    for (let index = 1; index <= pageSize + 1; index += 1) await story.api.comment(bob, post._id, `Reply ${index}`);

    const page = await story.open('/notifications', { session: ada });
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByText('Reply 21').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(pageSize);
    // From the keyboard, as the button is reached by Tab.
    await page.getByRole('button', { name: 'Load more' }).focus();
    await page.keyboard.press('Enter');
    // The oldest one arrives below the first page, and there is nothing more to ask for.
    await list.getByText('Reply 1', { exact: true }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(pageSize + 1);
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
  });

  it('a kind switched off in the profile’s settings is not notified', async () => {
    const { ada, bob } = await twoMembers();
    const page = await story.open(`/profile/${ada.user._id}?tab=settings`, { session: ada });
    const mentions = page.getByRole('switch', { name: 'Mentions' });
    await mentions.waitFor();
    expect(await mentions.getAttribute('aria-checked')).toBe('true');
    const saved = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/notification-settings' && response.request().method() === 'PUT',
    );
    await mentions.click();
    expect((await saved).status()).toBe(200);
    expect(await mentions.getAttribute('aria-checked')).toBe('false');

    await story.api.post(bob, { title: 'Thanks to Ada', desc: `Credit where due: @${ada.user.userName}` });
    await story.api.follow(bob, ada.user._id);

    await page.goto('/notifications');
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByText(`${bob.user.userName} followed you`).waitFor();
    expect(await list.getByText('mentioned you').count()).toBe(0);
    // The switch stays off after a reload (it is the server's setting).
    await page.goto(`/profile/${ada.user._id}?tab=settings`);
    await page.getByRole('switch', { name: 'Mentions' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Mentions' }).getAttribute('aria-checked')).toBe('false');
  });

  it('a hidden tab closes its stream and catches up, from the last event, when shown again', async () => {
    const { ada, bob, post, adaComment } = await twoMembers();
    // Watched from before the app starts: it may open the stream as soon as it runs.
    const page = await story.open('/api/health', { session: ada });
    const streams = watchRequests(page, STREAM);
    // The bell's first count has come back before the like: from then on only the stream can
    // bring the like (with its id). A count still on its way could carry it, and the tab be hidden
    // before the stream's event with the id came (a CI run: no Last-Event-ID on the way back).
    const firstCount = page.waitForResponse((response) => new URL(response.url()).pathname === UNREAD_COUNT);
    await page.goto('/');
    await firstCount;
    await bell(page, 'Notifications').waitFor();
    // Hiding must close a stream that is open (a CI run hid the tab before the live client had
    // asked for one: no stream to close), so the story waits for it first.
    if (streams.length === 0) await page.waitForRequest((request) => new URL(request.url()).pathname === STREAM);
    const opened = streams.length;
    await story.api.like(bob, post._id);
    await bell(page, 'Notifications, 1 unread').waitFor();

    const closed = page.waitForEvent('requestfailed', (request) => new URL(request.url()).pathname === STREAM);
    await setTabHidden(page, true);
    await closed;
    await story.api.reply(bob, post._id, adaComment, 'Hidden reply');
    // Nothing was opened while hidden, and nothing came in.
    expect(streams.length).toBe(opened);
    expect(await bell(page, 'Notifications, 1 unread').count()).toBe(1);

    await setTabHidden(page, false);
    await bell(page, 'Notifications, 2 unread').waitFor();
    expect(streams.length).toBe(opened + 1);
    expect(await streams[opened].headerValue('last-event-id')).toMatch(/.+/);
  });

  it('without streaming fetch it polls the unread count every minute, and not while hidden', async () => {
    const { ada, bob, post } = await twoMembers();
    const page = await story.open('/api/health', { session: ada });
    // A browser whose fetch replies cannot be read as a stream.
    await page.addInitScript(() => {
      delete (Response.prototype as { body?: unknown }).body;
    });
    await page.clock.install();
    const streams = watchRequests(page, STREAM);
    const polls = watchRequests(page, UNREAD_COUNT);
    const firstCount = page.waitForResponse((response) => new URL(response.url()).pathname === UNREAD_COUNT);
    await page.goto('/');
    // The first count has come back before the like below: from then on only a later poll can
    // change the bell (a first answer still on its way could carry the like itself).
    await firstCount;
    await bell(page, 'Notifications').waitFor();

    await story.api.like(bob, post._id);
    let before = polls.length;
    await page.clock.fastForward('01:00');
    await bell(page, 'Notifications, 1 unread').waitFor();
    expect(polls.length).toBeGreaterThan(before);

    await setTabHidden(page, true);
    await story.api.follow(bob, ada.user._id);
    before = polls.length;
    await page.clock.fastForward('05:00');
    expect(polls.length).toBe(before);
    expect(await bell(page, 'Notifications, 1 unread').count()).toBe(1);

    await setTabHidden(page, false);
    await bell(page, 'Notifications, 2 unread').waitFor();
    expect(streams).toHaveLength(0);
  });

  it('looks right: the bell and the page, light and dark, desktop and phone', async () => {
    const { ada, bob, post } = await twoMembers();
    await story.api.like(bob, post._id);
    await story.api.follow(bob, ada.user._id);
    for (const [viewport, theme] of [
      [undefined, 'light'],
      [undefined, 'dark'],
      [PHONE, 'light'],
      [PHONE, 'dark'],
    ] as const) {
      const session = { ...ada, user: { ...ada.user, theme } };
      const page = await story.open('/notifications', { session, viewport });
      await page.getByRole('list', { name: 'Notifications' }).getByText(`${bob.user.userName} followed you`).waitFor();
      await bell(page, 'Notifications, 2 unread').waitFor();
      expect(await seenTheme(page.getByRole('heading', { name: 'Notifications', level: 1 }))).toBe(theme);
      if (viewport) expect(await scrollsSideways(page)).toBe(false);
      await story.screenshot(page, `notifications-${viewport ? 'phone' : 'desktop'}-${theme}`);
    }
  });
});
