import type { SearchQuery, SearchTerm } from './search-query.parser';

/** A post as search shows it; desc and body are cut to their first SEARCH_TEXT_CHARS characters. */
export interface PostHitRow {
  id: string;
  title: string;
  description: string;
  body: string;
  author_id: string;
  author_user_name: string;
  author_pic: string;
  likes_count: number;
  comments_count: number;
  created_at: string;
}

/** Enough text for a snippet around an early match without reading a 256 KB article whole. */
export const SEARCH_TEXT_CHARS = 4000;

/**
 * The posts index, one interface over each database's full-text engine (FTS5 on SQLite,
 * tsvector + GIN on PostgreSQL; docs/decisions/034-search.md). Only the matching and ranking
 * differ, so only they live in the two implementations. Tags slot in as one more condition in
 * each `conditions` builder (`tag:name` as an EXISTS on post_tags, the reader's muted tags as a
 * NOT EXISTS) once the post_tags table lands.
 */
export interface PostSearchRepository {
  /** Matching posts whose title, reduced to its words, may equal `titleLike` (the caller checks). */
  titleCandidates(query: SearchQuery, titleLike: string, limit: number): Promise<PostHitRow[]>;
  /** Matching posts best first (weighted title > desc > body, then newest), leaving out `excludeIds`. */
  ranked(query: SearchQuery, excludeIds: string[], offset: number, limit: number): Promise<PostHitRow[]>;
  /** Indexed words starting with `first` and `min`–`max` letters long, with how many posts hold each. */
  knownWords(first: string, min: number, max: number): Promise<{ term: string; docs: number }[]>;
}

export const POST_SEARCH_REPOSITORY = Symbol('PostSearchRepository');

export function positives(query: SearchQuery): SearchTerm[] {
  return query.terms.filter((term) => !term.negated);
}

export function negatives(query: SearchQuery): SearchTerm[] {
  return query.terms.filter((term) => term.negated);
}
