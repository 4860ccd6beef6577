import { SEARCH } from '@techit/contract/limits';
import { normaliseTag, TAG_PATTERN } from '@techit/contract/tag-rules';

/**
 * A search query parsed into our own terms (docs/decisions/034-search.md). Neither FTS5's MATCH
 * syntax nor a tsquery is ever built from the user's text: only from these tokens, which hold
 * letters and digits alone, so no input can reach either engine's syntax.
 */
export interface SearchTerm {
  /** Lower-cased runs of letters and digits; one for a word, several for a phrase. */
  tokens: string[];
  negated: boolean;
  /** A wanted word of at most SEARCH.prefixMaxLength characters: matches words starting with it. */
  prefix?: boolean;
}

export interface SearchQuery {
  /** Every term must match, except negated ones, which must not. */
  terms: SearchTerm[];
  /** `@userName`: only this author's items (case-insensitive). */
  author: string | null;
  /** `tag:name`, normalised like a post's tag (lower-cased, `#` stripped): the post carries every one. */
  tags: string[];
}

/** Why a query cannot be searched; the service answers 400 with it. */
export class SearchQueryError extends Error {}

const TOKEN = /[\p{L}\p{N}]+/gu;
const USER_NAME = /^[A-Za-z0-9_.-]+$/;

/** Splits text the way both indexes do: runs of letters and digits, lower-cased. */
export function tokensOf(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []).slice();
}

/**
 * Words (all must match), "a phrase", -word or -"a phrase" (excluded), @userName, tag:name.
 * Anything else is text: an unbalanced quote runs to the end, stray operators and punctuation are
 * separators, so every input parses.
 */
export function parseSearchQuery(input: string): SearchQuery {
  const query: SearchQuery = { terms: [], author: null, tags: [] };
  let rest = input.normalize('NFC');
  let pieces = 0;
  while (rest.length > 0) {
    rest = rest.replace(/^\s+/u, '');
    if (rest.length === 0) break;
    let negated = false;
    if (rest.startsWith('-') && rest.length > 1 && !/^-\s/u.test(rest)) {
      negated = true;
      rest = rest.slice(1);
    }
    let raw: string;
    let phrase = false;
    if (rest.startsWith('"')) {
      const end = rest.indexOf('"', 1);
      raw = end === -1 ? rest.slice(1) : rest.slice(1, end);
      rest = end === -1 ? '' : rest.slice(end + 1);
      phrase = true;
    } else {
      const match = /^\S+/u.exec(rest);
      raw = match ? match[0] : rest;
      rest = rest.slice(raw.length);
    }
    pieces += 1;
    if (pieces > SEARCH.termsMax) throw new SearchQueryError(`Search for at most ${SEARCH.termsMax} words`);
    if (!phrase && !negated && raw.startsWith('@') && USER_NAME.test(raw.slice(1))) {
      query.author = raw.slice(1);
      continue;
    }
    if (!phrase && raw.toLowerCase().startsWith('tag:')) {
      // Named like a post's tag (contract/src/tag-rules.ts): `tag:#Rust` is rust.
      const name = normaliseTag(raw.slice(4));
      if (negated) throw new SearchQueryError('-tag: is not supported: mute the tag to leave its posts out');
      if (!TAG_PATTERN.test(name)) {
        throw new SearchQueryError(
          `"${raw.slice(0, 40)}" does not name a tag: tag: is followed by 1 to 30 lower-case letters, digits or dashes, starting with a letter or digit`,
        );
      }
      if (!query.tags.includes(name)) query.tags.push(name);
      continue;
    }
    const tokens = tokensOf(raw);
    if (tokens.length === 0) continue;
    // A word with punctuation inside ("node.js") is indexed as its parts side by side: a phrase.
    const [only] = tokens;
    if (
      !phrase &&
      !negated &&
      tokens.length === 1 &&
      only !== undefined &&
      [...only].length <= SEARCH.prefixMaxLength
    ) {
      query.terms.push({ tokens, negated, prefix: true });
    } else query.terms.push({ tokens, negated });
  }
  return query;
}

/** The query as text again (for correctedQuery), in our own syntax. */
export function formatSearchQuery(query: SearchQuery): string {
  const parts: string[] = [];
  for (const term of query.terms) {
    const text = term.tokens.length > 1 ? `"${term.tokens.join(' ')}"` : (term.tokens[0] ?? '');
    parts.push(term.negated ? `-${text}` : text);
  }
  if (query.author) parts.push(`@${query.author}`);
  for (const tag of query.tags) parts.push(`tag:${tag}`);
  return parts.join(' ');
}

/** The positive terms' tokens joined by spaces: compared with a title for the exact-title rule. */
export function exactTitleKey(query: SearchQuery): string {
  return query.terms
    .filter((term) => !term.negated)
    .flatMap((term) => term.tokens)
    .join(' ');
}

/** A title reduced the same way, so "Kubernetes: the Guide!" equals the query "kubernetes the guide". */
export function titleKey(title: string): string {
  return tokensOf(title).join(' ');
}
