import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * The page runs no inline script: the server's Content-Security-Policy allows only script files
 * of its own origin (`script-src 'self'`), which is what stops an injected `<script>` from running.
 *
 * A few lines must still run before the first paint: theme-boot.js (the saved theme, so a dark
 * theme never flashes white), the app shell's marker (app-shell.ts) and the page's preloads
 * (route-preloads.ts). In the built index.html they become one small file, `/assets/boot-<hash>.js`,
 * loaded by a classic (blocking) script tag where theme-boot.js was named: first in <head>, before
 * the style sheets, so it still runs before anything is painted and never waits for a style sheet.
 * It is fetched alongside those style sheets, which block the first paint anyway, and its hashed
 * name lets browsers keep it for good. The dev server serves theme-boot.js itself and no policy.
 */

const THEME_BOOT_TAG = '<script src="/theme-boot.js"></script>';
/** A classic script with its code in the page (no attributes: what the plugins above inject). */
const INLINE_SCRIPT = /[ \t]*<script>([\s\S]*?)<\/script>\n?/g;

export function bootScript(): Plugin {
  return {
    name: 'techit-boot-script',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (page?.type !== 'asset') return this.error('techit-boot-script: no index.html in the bundle');
      let html = typeof page.source === 'string' ? page.source : new TextDecoder().decode(page.source);
      if (!html.includes(THEME_BOOT_TAG))
        return this.error(`techit-boot-script: index.html no longer has ${THEME_BOOT_TAG}`);

      const parts = [readFileSync(new URL('../public/theme-boot.js', import.meta.url), 'utf8').trim()];
      html = html.replace(INLINE_SCRIPT, (_tag, code: string) => {
        parts.push(code.trim());
        return '';
      });
      // Each part is a statement or an IIFE of its own: a `;` on a line of its own after each keeps
      // one from continuing the next, even when a part ends in a // comment.
      const source = parts.map((part) => `${part}\n;\n`).join('');
      const fileName = `assets/boot-${createHash('sha256').update(source).digest('base64url').slice(0, 10)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      // The style sheets right after it, before the app's module script and its preloads: on
      // HTTP/1.1 a browser opens six connections to the site and sends requests in the order it
      // finds them, so style sheets found after a dozen scripts wait for a connection while the
      // first paint waits for them.
      const styleSheets: string[] = [];
      html = html.replace(/[ \t]*<link rel="stylesheet"[^>]*>\n?/g, (tag) => {
        styleSheets.push(tag.trim());
        return '';
      });
      html = html.replace(
        THEME_BOOT_TAG,
        () => `<script src="/${fileName}"></script>${styleSheets.map((tag) => `\n    ${tag}`).join('')}`,
      );

      const stillInline = /<script\b(?![^>]*\bsrc=)[^>]*>/.exec(html);
      if (stillInline)
        return this.error(`techit-boot-script: an inline script is left in index.html: ${stillInline[0]}`);
      if (/<[^>]+\son[a-z]+\s*=/i.test(html))
        return this.error('techit-boot-script: index.html has an inline event handler');
      page.source = html;
    },
  };
}
