import type { Locator, Page } from 'playwright-core';

/**
 * The theme a person sees on this piece of text: dark when the text is lighter than what is
 * painted behind it, light otherwise. Reads the rendered colours, the text's own and the first
 * opaque background from it up to the page, not the theme setting (screenshots are not
 * assertions; this is what they would show).
 */
export async function seenTheme(text: Locator): Promise<'light' | 'dark'> {
  return text.evaluate((element) => {
    const channels = (color: string): number[] => {
      const match = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)$/.exec(color);
      if (!match) throw new Error(`Unexpected colour ${color}`);
      return [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])];
    };
    // Relative luminance (WCAG 2).
    const luminance = (color: string): number => {
      const [r, g, b] = channels(color).map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    let background = 'rgb(255, 255, 255)';
    for (let node: Element | null = element; node; node = node.parentElement) {
      const color = getComputedStyle(node).backgroundColor;
      if (channels(color)[3] >= 0.5) {
        background = color;
        break;
      }
    }
    return luminance(getComputedStyle(element).color) > luminance(background) ? 'dark' : 'light';
  });
}

/** True when the page is wider than the window, so a person would have to scroll sideways. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}
