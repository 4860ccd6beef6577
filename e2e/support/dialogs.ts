import type { Locator, Page } from 'playwright-core';

/**
 * A confirm dialog, once it has finished appearing: a click while it still zooms in can press on
 * a button and release on the moving dialog, and is lost (seen under CI load).
 */
export async function settledConfirm(page: Page, question: string): Promise<Locator> {
  const dialog = page.getByRole('dialog').filter({ hasText: question });
  await dialog.waitFor();
  await page.waitForFunction(() => {
    const modal = document.querySelector('.ant-modal-confirm');
    return !!modal && !/-(appear|enter)\b/.test(modal.className);
  });
  return dialog;
}

/**
 * A dropdown menu's item, once the menu has finished appearing: a click while the menu still
 * slides in can land where the item was a frame earlier and is lost (seen under CI load: the
 * profile's Edit Profile menu stayed open with the click spent on nothing).
 */
export async function settledMenuItem(page: Page, name: string | RegExp): Promise<Locator> {
  const item = page.getByRole('menuitem', { name });
  await item.waitFor();
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('.ant-dropdown')).every(
      (menu) => menu.classList.contains('ant-dropdown-hidden') || !/-(appear|enter)\b/.test(menu.className),
    ),
  );
  return item;
}

/**
 * A modal dialog (not a confirm: one with its own buttons, such as the draft conflict's), once it
 * has finished appearing, for the same reason as settledConfirm.
 */
export async function settledDialog(page: Page, title: string): Promise<Locator> {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await dialog.waitFor();
  await page.waitForFunction(() => {
    const modals = Array.from(document.querySelectorAll('.ant-modal'));
    return modals.length > 0 && modals.every((modal) => !/-(appear|enter)\b/.test(modal.className));
  });
  return dialog;
}
