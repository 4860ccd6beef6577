import type { Locator, Page } from 'playwright-core';
import { settled } from '../support/accessibility';
import { DESKTOP, PHONE, useStory } from '../support/browser';
import { settledMenuItem } from '../support/dialogs';

type Box = { x: number; y: number; width: number; height: number };

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The toast showing `text`, once it has stopped moving (Ant Design's notification or message). */
async function toastBox(page: Page, text: string): Promise<Box> {
  const toast = page.locator('.ant-notification-notice, .ant-message-notice').filter({ hasText: text });
  await toast.waitFor();
  await settled(page);
  const box = await toast.boundingBox();
  if (!box) throw new Error(`The toast '${text}' has no box`);
  return box;
}

/** What of the profile header a toast must leave uncovered: the picture, the name, each action button. */
async function headerParts(page: Page): Promise<Array<{ name: string; box: Box }>> {
  const header = page.locator('.profile-header');
  const parts: Locator[] = [header.getByRole('img').first(), page.getByRole('heading', { level: 1 })];
  const buttons = header.getByRole('button');
  for (let index = 0; index < (await buttons.count()); index += 1) parts.push(buttons.nth(index));
  return Promise.all(
    parts.map(async (part) => {
      const box = await part.boundingBox();
      if (!box) throw new Error('A part of the profile header has no box');
      const name = (await part.textContent())?.trim() || (await part.getAttribute('aria-label')) || 'picture';
      return { name, box };
    }),
  );
}

describe('Toasts cover no heading or action', () => {
  const story = useStory();

  it.each([
    ['a large screen', DESKTOP],
    ['a phone', PHONE],
  ] as const)("leave the profile's name and Follow button free for a visitor on %s", async (_, viewport) => {
    const owner = await story.api.user();
    const page = await story.open(`/profile/${owner.user._id}`, { viewport });
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    const toast = await toastBox(page, 'Login Required!');
    const covered = (await headerParts(page)).filter((part) => overlaps(toast, part.box)).map((part) => part.name);
    expect(covered).toEqual([]);
    if (viewport === PHONE) {
      // Above the bottom bar, not over it.
      const bar = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
      expect(bar && toast.y + toast.height <= bar.y).toBe(true);
    }
    await story.screenshot(page, `toast-on-profile-${viewport === PHONE ? 'phone' : 'desktop'}`);
  });

  it.each([
    ['a large screen', DESKTOP],
    ['a phone', PHONE],
  ] as const)("leave the owner's name and Edit Profile button free after a change on %s", async (_, viewport) => {
    const owner = await story.api.user();
    const page = await story.open(`/profile/${owner.user._id}`, { session: owner, viewport });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await (await settledMenuItem(page, 'Update Position')).click();
    const dialog = page.getByRole('dialog', { name: 'Update Position' });
    // Typed once the dialog has opened and put the focus in its field (as profile.story.ts does).
    const field = await dialog.getByLabel('Position', { exact: true }).elementHandle();
    await page.waitForFunction((element) => element === document.activeElement, field);
    await dialog.getByLabel('Position', { exact: true }).fill('Accessibility lead');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const toast = await toastBox(page, 'Updated your position');
    const covered = (await headerParts(page)).filter((part) => overlaps(toast, part.box)).map((part) => part.name);
    expect(covered).toEqual([]);
  });
});
