import type { RenderContext } from '../markdown/markdown-renderer';
import { render, RENDERER_VERSION } from '../markdown/markdown-renderer';
import type { ImportRows } from './mongo-import.planner';

/**
 * Renders the imported texts before they are written, as the app renders on save
 * (docs/decisions/028-stored-html.md), so no imported row waits for `npm run rerender`. An
 * `@name` links to the imported account of that name, else to an account already in the
 * database (`lookUp`, one query per text that names someone). The original had no article and
 * its texts render with the small set, which has no images: no image is ever asked about.
 */
export async function renderImportedTexts(
  rows: ImportRows,
  lookUp: (names: readonly string[]) => Promise<ReadonlyMap<string, string>>,
): Promise<void> {
  const imported = new Map(rows.users.map((user) => [user.user_name.toLowerCase(), user.id]));
  const context: RenderContext = {
    async resolveMentions(names) {
      const found = new Map<string, string>();
      const elsewhere: string[] = [];
      for (const name of names) {
        const id = imported.get(name.toLowerCase());
        if (id) found.set(name.toLowerCase(), id);
        else elsewhere.push(name);
      }
      if (elsewhere.length > 0) for (const [name, id] of await lookUp(elsewhere)) found.set(name, id);
      return found;
    },
    isOwnImage: () => false,
  };
  for (const post of rows.posts) {
    post.desc_html = await render(post.description, 'comment', context);
    post.body_html = post.body === '' ? '' : await render(post.body, 'post', context);
    post.render_version = RENDERER_VERSION;
  }
  for (const comment of rows.comments) {
    comment.text_html = await render(comment.text, 'comment', context);
    comment.render_version = RENDERER_VERSION;
  }
  for (const notice of rows.notices) {
    notice.desc_html = await render(notice.description, 'notice', context);
    notice.render_version = RENDERER_VERSION;
  }
}
