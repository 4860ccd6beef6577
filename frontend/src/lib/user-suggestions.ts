import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { UserSuggestionsReply } from '@techit/contract/api-types';
import { USER_SUGGESTIONS } from '@techit/contract/limits';
import { api } from './api-client';
import { pageQuery } from './cursor-pages';
import { useDebouncedValue } from './use-debounced-value';

/** How long typing must pause before the suggestions are asked for. */
const SUGGEST_AFTER_MS = 150;

/** GET /api/users/suggest?prefix=…&limit=…: users whose userName starts so (case-insensitive). */
export function userSuggestionsPath(prefix: string, limit: number = USER_SUGGESTIONS.defaultSize): string {
  return `/users/suggest?${pageQuery({ prefix, limit })}`;
}

/**
 * The users whose name starts with `prefix` (what follows a typed `@`), for the editors' mention
 * suggestions (components/mention-suggestions.tsx). null, or shorter than
 * USER_SUGGESTIONS.minPrefix: nothing is asked. One request per pause in typing; a request whose
 * prefix has been typed past is cancelled (the query's signal: TanStack Query aborts a fetch no
 * one watches any more), and the last list stays while the next loads. A failure shows nothing
 * (no errorToast): the person can still type the whole name.
 */
export function useUserSuggestions(prefix: string | null) {
  const settled = useDebouncedValue(prefix, SUGGEST_AFTER_MS);
  const asked = settled !== null && settled.length >= USER_SUGGESTIONS.minPrefix && settled === prefix;
  const query = useQuery({
    queryKey: ['users', 'suggestions', settled?.toLowerCase() ?? ''],
    queryFn: ({ signal }) => api<UserSuggestionsReply>(userSuggestionsPath(settled ?? ''), { signal }),
    enabled: asked,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const shown = prefix !== null && prefix.length >= USER_SUGGESTIONS.minPrefix;
  return { users: (shown && query.data?.users) || [], loading: shown && (!asked || query.isFetching) };
}
