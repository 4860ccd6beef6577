import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SearchReply, TagsReply, UserSearchResult } from '@techit/contract/api-types';
import { normaliseTag, TAG_PATTERN } from '@techit/contract/tag-rules';
import { api } from '../../../lib/api-client';
import { searchPaths } from './search-paths';

/** Suggestions start at this many typed characters (issue 17). */
export const SUGGEST_FROM = 2;

/** What the typed text asks the two suggestion sources: null where that source has nothing to go on. */
export interface SuggestionInput {
  users: string | null;
  tagPrefix: string | null;
}

const TAG_OPERATOR = /^(tag:|#)/i;

/**
 * People are looked for with the whole text (the `@` of a name dropped, a `tag:` word left out, since
 * it is not about people); tags with the last word, the one being typed (`#` or `tag:` before it
 * means only tags). Shorter than SUGGEST_FROM, or not the start of a tag name: not asked.
 */
export function suggestionInput(text: string): SuggestionInput {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const last = words.at(-1) ?? '';
  const onlyTags = TAG_OPERATOR.test(last);
  const prefix = normaliseTag(last.replace(/^tag:/i, ''));
  const people = words
    .filter((word) => !TAG_OPERATOR.test(word))
    .map((word) => word.replace(/^@/, ''))
    .join(' ');
  return {
    users: !onlyTags && people.length >= SUGGEST_FROM ? people : null,
    tagPrefix: prefix.length >= SUGGEST_FROM && TAG_PATTERN.test(prefix) ? prefix : null,
  };
}

// A suggestion that fails is left out silently (logged by the error policy): the box still searches.
const userSuggestions = (q: string) => ({
  queryKey: ['search-suggestions', 'users', q] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<SearchReply<UserSearchResult>>(searchPaths.userSuggestions(q), { signal }),
  select: (reply: SearchReply<UserSearchResult>) => reply.results,
});

const tagSuggestions = (prefix: string) => ({
  queryKey: ['search-suggestions', 'tags', prefix] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api<TagsReply>(searchPaths.tagSuggestions(prefix), { signal }),
  select: (reply: TagsReply) => reply.tags,
});

/**
 * The people and tags suggested for `input` (already debounced by the box). While the next ones
 * load, the last ones stay, so the list does not blink at every keystroke.
 */
export function useSuggestions(input: SuggestionInput) {
  const users = useQuery({
    ...userSuggestions(input.users ?? ''),
    enabled: input.users !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const tags = useQuery({
    ...tagSuggestions(input.tagPrefix ?? ''),
    enabled: input.tagPrefix !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  return {
    users: input.users === null ? [] : (users.data ?? []),
    tags: input.tagPrefix === null ? [] : (tags.data ?? []),
    loading: users.isFetching || tags.isFetching,
  };
}
