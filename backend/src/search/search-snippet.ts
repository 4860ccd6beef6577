/**
 * The snippet of a search result: a short passage around the first matched word, as HTML whose
 * only markup is <mark>. Built here from plain text (every character escaped, then matched words
 * wrapped) rather than from a database's highlight output, which would carry the author's own
 * markup through (docs/decisions/034-search.md).
 */
const SNIPPET_LENGTH = 200;
const LEAD = 60;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased and without accents, as SQLite's index compares words. */
export function foldWord(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Markdown's marks read as noise in a one-line passage; the words stay. */
function plain(text: string): string {
  return text
    .replace(/^[ \t]*(?:[#>]+|[-*+]|\d+\.)[ \t]+/gm, '')
    .replace(/[*`~]+/g, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** What a snippet marks: these words (folded), and words starting with one of `prefixes`. */
export interface SnippetWords {
  words: ReadonlySet<string>;
  prefixes: readonly string[];
}

function marks(found: SnippetWords, word: string): boolean {
  const folded = foldWord(word);
  return found.words.has(folded) || found.prefixes.some((prefix) => folded.startsWith(prefix));
}

export function buildSnippet(sources: string[], words: SnippetWords): string {
  const text = plain(sources.filter((source) => source.length > 0).join(' '));
  let first = -1;
  for (const match of text.matchAll(WORD)) {
    if (marks(words, match[0])) {
      first = match.index;
      break;
    }
  }
  let start = first > LEAD ? first - LEAD : 0;
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space !== -1 && space < first ? space + 1 : start;
  }
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start && space > first) end = space;
  }
  const passage = text.slice(start, end);
  let html = '';
  let last = 0;
  for (const match of passage.matchAll(WORD)) {
    if (!marks(words, match[0])) continue;
    html += `${escapeHtml(passage.slice(last, match.index))}<mark>${escapeHtml(match[0])}</mark>`;
    last = match.index + match[0].length;
  }
  html += escapeHtml(passage.slice(last));
  return `${start > 0 ? '…' : ''}${html}${end < text.length ? '…' : ''}`;
}
