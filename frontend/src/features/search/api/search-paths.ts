import type { SearchType } from '@techit/contract/api-types';
import { pageQuery } from '../../../lib/cursor-pages';

/** How many suggestions of each kind the search box offers while typing. */
export const SUGGESTIONS_PER_KIND = 5;

/** The API addresses search reads, built in one place. No browser code. */
export const searchPaths = {
  /** GET /api/search?q=…&type=…[&cursor=…]: one page of results of one type (the server's default size). */
  results: (q: string, type: SearchType, cursor: string | null) => `/search?${pageQuery({ q, type, cursor })}`,
  /** GET /api/search?type=users&q=…&limit=5: the people the box suggests. */
  userSuggestions: (q: string) => `/search?${pageQuery({ q, type: 'users', limit: SUGGESTIONS_PER_KIND })}`,
  /** GET /api/tags?prefix=…&limit=5: the tags the box suggests, most-used first. */
  tagSuggestions: (prefix: string) => `/tags?${pageQuery({ prefix, limit: SUGGESTIONS_PER_KIND })}`,
};
