import type { MarkdownKind } from '@techit/contract/enums';
import { render, type RenderContext } from '../markdown/markdown-renderer';

/**
 * The seed stores HTML as the app does on save (docs/decisions/028-stored-html.md), rendered by
 * the same renderer. Its texts are words and sentence marks: they name nobody (no `@`) and, in the
 * small set, can hold no image, so there is nothing to look up.
 */
const SEED_CONTEXT: RenderContext = {
  resolveMentions: () => Promise.resolve(new Map()),
  isOwnImage: () => false,
};

export function seedHtml(source: string, kind: MarkdownKind): Promise<string> {
  return render(source, kind, SEED_CONTEXT);
}
