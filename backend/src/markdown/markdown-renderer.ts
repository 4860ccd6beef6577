import { isExternalUrl, isMarkdownUrl } from '@techit/contract/url-rules';
import type { MarkdownKind } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import MarkdownIt from 'markdown-it';
import { highlightCode, knownLanguage } from './code-highlighter';

/**
 * Bumped whenever the same source would render differently (a rule, a library upgrade, the
 * language list): rows store the version they were rendered with, and `npm run rerender` redoes
 * the older ones.
 */
export const RENDERER_VERSION = 2;

/** What a render needs from outside, supplied by the caller so the renderer stays pure. */
export interface RenderContext {
  /** The ids of the users with these names (any letter case), keyed by the lowercased name; one lookup. */
  resolveMentions(names: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** Whether an image URL names an image this site's storage holds (disk, S3 or Cloudinary). */
  isOwnImage(url: string): boolean;
}

/** A text naming more people than this links the first ones only: one bounded lookup per render. */
export const MENTIONS_MAX = 50;

export const EXTERNAL_LINK_REL = 'ugc nofollow noopener noreferrer';

type Token = MarkdownIt.Token;
type TokenClass = MarkdownIt.StateCore['Token'];

/** What one render carries through markdown-it's rules (its `env`). */
interface RenderEnv {
  mentionNames: Set<string>;
  mentionIds?: ReadonlyMap<string, string>;
  isOwnImage?: (url: string) => boolean;
  headingSlugs: Map<string, number>;
}

function envOf(env: unknown): RenderEnv {
  return env as RenderEnv;
}

function attr(token: Token, name: string): string | null {
  const value = token.attrGet(name);
  return value === null ? null : String(value);
}

// `@name` not glued to a word, an email or a path; a trailing dot or dash ends the sentence, not the name.
const MENTION = /(^|[^A-Za-z0-9_.@/-])@([A-Za-z0-9_][A-Za-z0-9_.-]*)/g;
const TASK = /^\[([ xX])\][ \t]/;
// What follows `www.`: a host, a port, a path; closing punctuation is trimmed off (a sentence's full stop).
// Dot-separated labels cannot overlap, so no input makes it backtrack much.
const WWW_TAIL = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d{2,5})?(?:[/?#][^\s<>"'`]*)?/i;

function createParser(kind: MarkdownKind): MarkdownIt.MarkdownIt {
  const small = kind !== 'post';
  // html: false escapes raw HTML instead of passing it through: no tag in the output comes from the source.
  const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false, breaks: small });
  // Bare URLs become links when they say so (`https://…`, `www.…`, an email); linkify-it's fuzzy
  // mode would also link `main.py` (.py is a country) and costs most of a render's time.
  md.linkify.set({ fuzzyLink: false });
  md.linkify.add('www.', {
    validate: (text, pos) => WWW_TAIL.exec(text.slice(pos))?.[0].replace(/[.,;:!?)\]*_~]+$/, '').length ?? 0,
    normalize: (match) => {
      match.url = `https://${match.url}`;
    },
  });
  // One allow-list for every href and src: links, autolinks, bare URLs, images. A refused URL stays text.
  md.validateLink = isMarkdownUrl;
  if (small) {
    // The small set keeps text written before Markdown as it read: an indented line or `---` is text.
    md.disable(['heading', 'lheading', 'image', 'table', 'strikethrough', 'hr', 'code']);
  }

  md.core.ruler.push('techit_mentions', (state) => {
    for (const block of state.tokens) {
      if (block.type === 'inline' && block.children)
        block.children = splitMentions(block.children, envOf(state.env), state.Token);
    }
  });
  md.core.ruler.push('techit_links', (state) => {
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        const href = token.type === 'link_open' ? attr(token, 'href') : null;
        if (href !== null && isExternalUrl(href)) token.attrSet('rel', EXTERNAL_LINK_REL);
      }
    }
  });
  if (!small) {
    md.core.ruler.push('techit_headings', (state) => addHeadingIds(state.tokens, envOf(state.env)));
    md.core.ruler.push('techit_tasks', (state) => addTaskItems(state.tokens, state.Token));
    md.core.ruler.push('techit_table_align', (state) => {
      // markdown-it aligns cells with style="text-align:…"; the CSP allows no inline style, so a class.
      for (const token of state.tokens) {
        const align = /text-align:(left|right|center)/.exec(attr(token, 'style') ?? '')?.[1];
        if (!align) continue;
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
        token.attrJoin('class', `align-${align}`);
      }
    });
  }

  const escape = md.utils.escapeHtml;
  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    const language = knownLanguage(token.info.trim().split(/\s+/)[0] ?? '');
    const highlighted = language ? highlightCode(token.content, language) : undefined;
    return highlighted !== undefined
      ? `<pre><code class="hljs language-${language}">${highlighted}</code></pre>\n`
      : `<pre><code>${escape(token.content)}</code></pre>\n`;
  };
  md.renderer.rules.mention = (tokens, idx, _options, env) => {
    const name = tokens[idx].content;
    const id = envOf(env).mentionIds?.get(name.toLowerCase());
    return id
      ? `<a href="/profile/${encodeURIComponent(id)}" class="mention">@${escape(name)}</a>`
      : `@${escape(name)}`;
  };
  // Named, as every form control must be (axe's "label" rule, found on the editor's Preview):
  // read as "Task, checkbox, checked" before the item's text.
  md.renderer.rules.task_checkbox = (tokens, idx) =>
    `<input type="checkbox" class="task-list-item-checkbox" aria-label="Task" disabled${tokens[idx].meta?.checked === true ? ' checked' : ''}> `;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = attr(token, 'src') ?? '';
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    if (envOf(env).isOwnImage?.(src)) return `<img src="${escape(src)}" alt="${escape(alt)}" loading="lazy">`;
    // Any other image would tell a third party who reads the post: it becomes a link to it.
    const rel = isExternalUrl(src) ? ` rel="${EXTERNAL_LINK_REL}"` : '';
    return `<a href="${escape(src)}"${rel}>${escape(alt || src)}</a>`;
  };
  return md;
}

function splitMentions(children: Token[], env: RenderEnv, TokenClass: TokenClass): Token[] {
  const out: Token[] = [];
  let linkDepth = 0;
  for (const token of children) {
    if (token.type === 'link_open') linkDepth += 1;
    if (token.type === 'link_close') linkDepth -= 1;
    if (token.type !== 'text' || linkDepth > 0 || !token.content.includes('@')) {
      out.push(token);
      continue;
    }
    let last = 0;
    for (const match of token.content.matchAll(MENTION)) {
      const name = match[2].replace(/[.-]+$/, '');
      if (name.length < LIMITS.userNameMin || name.length > LIMITS.userNameMax) continue;
      const at = (match.index ?? 0) + match[1].length;
      const known = env.mentionNames.has(name.toLowerCase());
      if (!known && env.mentionNames.size >= MENTIONS_MAX) continue;
      env.mentionNames.add(name.toLowerCase());
      if (at > last) out.push(textToken(TokenClass, token.content.slice(last, at), token.level));
      const mention = new TokenClass('mention', '', 0);
      mention.content = name;
      mention.level = token.level;
      out.push(mention);
      last = at + 1 + name.length;
    }
    if (last === 0) out.push(token);
    else if (last < token.content.length) out.push(textToken(TokenClass, token.content.slice(last), token.level));
  }
  return out;
}

function textToken(TokenClass: TokenClass, content: string, level: number): Token {
  const token = new TokenClass('text', '', 0);
  token.content = content;
  token.level = level;
  return token;
}

/** GitHub-style ids: lowercased words joined by dashes; a repeated title gets -1, -2, … */
function addHeadingIds(tokens: Token[], env: RenderEnv): void {
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const text = (tokens[index + 1]?.children ?? [])
      .filter((child) => child.type === 'text' || child.type === 'code_inline' || child.type === 'mention')
      .map((child) => child.content)
      .join('');
    const base =
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .trim()
        .replace(/\s+/g, '-') || 'section';
    const seen = env.headingSlugs.get(base) ?? 0;
    env.headingSlugs.set(base, seen + 1);
    let slug = seen === 0 ? base : `${base}-${seen}`;
    while (seen > 0 && env.headingSlugs.has(slug)) slug = `${slug}-1`;
    if (slug !== base) env.headingSlugs.set(slug, 1);
    token.attrSet('id', slug);
  });
}

/** GFM task list items: `- [ ] todo` / `- [x] done` get a disabled checkbox. */
function addTaskItems(tokens: Token[], TokenClass: TokenClass): void {
  tokens.forEach((token, index) => {
    if (token.type !== 'inline' || tokens[index - 1]?.type !== 'paragraph_open') return;
    if (tokens[index - 2]?.type !== 'list_item_open') return;
    const first = token.children?.[0];
    const match = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !match) return;
    first.content = first.content.slice(match[0].length);
    const checkbox = new TokenClass('task_checkbox', 'input', 0);
    checkbox.meta = { checked: match[1] !== ' ' };
    token.children?.unshift(checkbox);
    tokens[index - 2].attrJoin('class', 'task-list-item');
  });
}

const PARSERS: Record<MarkdownKind, MarkdownIt.MarkdownIt> = {
  post: createParser('post'),
  comment: createParser('comment'),
  notice: createParser('notice'),
};

/**
 * Markdown → sanitised HTML, the one function behind a save and a preview (so they are the same).
 * `post` is CommonMark + GFM with heading ids and this site's images; `comment` and `notice` the
 * small set with line breaks kept. Raw HTML is escaped; only http(s), mailto and this site's paths
 * become links. Pure apart from the context's one mention lookup.
 */
export async function render(source: string, kind: MarkdownKind, context: RenderContext): Promise<string> {
  const md = PARSERS[kind];
  const env: RenderEnv = { mentionNames: new Set(), headingSlugs: new Map() };
  const tokens = md.parse(source, env as unknown as MarkdownIt.Env);
  env.mentionIds = env.mentionNames.size > 0 ? await context.resolveMentions([...env.mentionNames]) : new Map();
  env.isOwnImage = (url) => context.isOwnImage(url);
  return md.renderer.render(tokens, md.options, env as unknown as MarkdownIt.Env);
}
