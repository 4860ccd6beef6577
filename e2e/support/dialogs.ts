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
