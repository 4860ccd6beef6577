import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Tag, TagsReply } from '@techit/contract/api-types';
import { normaliseTag, TAG_PATTERN } from '@techit/contract/tag-rules';
import { api } from './api-client';
import { tagPaths } from './tag-paths';
import { useDebouncedValue } from './use-debounced-value';

/** How long typing must pause before the suggestions are asked for. */
const SUGGEST_AFTER_MS = 200;

/**
 * The used tags starting with what is typed (normalised as a tag is: `#` and case dropped), most
 * used first; with nothing typed, the most used tags of all. Asked only while `enabled` (the
 * input has focus), one request per pause in typing; the last list stays while the next loads. A
 * failure shows nothing (no errorToast): the person can still type any tag.
 */
export function useTagSuggestions(typed: string, enabled: boolean): Tag[] {
  const prefix = normaliseTag(useDebouncedValue(typed, SUGGEST_AFTER_MS));
  // A prefix no tag can start with (a space, a dot…) has no suggestions: no request.
  const possible = prefix === '' || TAG_PATTERN.test(prefix);
  const query = useQuery({
    queryKey: ['tags', 'suggestions', prefix],
    queryFn: ({ signal }) => api<TagsReply>(tagPaths.suggestions(prefix), { signal }),
    enabled: enabled && possible,
    placeholderData: keepPreviousData,
  });
  return (possible && query.data?.tags) || [];
}
