import type { SafeHtml } from './html';

/**
 * The built index.html cut where a page's parts go: the head's tags where its generic <title> and
 * description were (both taken out, so a page never carries two), and the readable content in the
 * static shell's main area (frontend/vite-plugins/app-shell.ts) inside #root, which React's
 * createRoot replaces on its first render. A page without those marks (a stand-in build) gets
 * the head before </head> and the content at the end of the body.
 */
export class PageTemplate {
  private constructor(
    private readonly beforeHead: string,
    private readonly beforeContent: string,
    private readonly afterContent: string,
  ) {}

  static parse(page: string): PageTemplate {
    let rest = page.replace(/<meta\s+name=["']description["'][^>]*>\s*/gi, '');
    let headAt = rest.search(/<title>[^<]*<\/title>/i);
    if (headAt >= 0) {
      rest = rest.replace(/<title>[^<]*<\/title>\s*/i, '');
    } else {
      headAt = rest.search(/<\/head>/i);
      if (headAt < 0) headAt = 0;
    }
    const beforeHead = rest.slice(0, headAt);
    let body = rest.slice(headAt);
    // Shown without the app's script too (a reader without JavaScript, a crawler): see SHELL_STYLE.
    body = body.replace('class="app-shell boot-shell"', 'class="app-shell boot-shell boot-shell-filled"');
    const main = '<main class="app-main">';
    let contentAt = body.indexOf(main);
    if (contentAt >= 0) contentAt += main.length;
    else {
      contentAt = body.search(/<\/body>/i);
      if (contentAt < 0) contentAt = body.length;
    }
    return new PageTemplate(beforeHead, body.slice(0, contentAt), body.slice(contentAt));
  }

  render(head: SafeHtml, content: SafeHtml): string {
    return `${this.beforeHead}${head.value}\n${this.beforeContent}${content.value}${this.afterContent}`;
  }
}
