import { useInfiniteQuery } from '@tanstack/react-query';
import type {
  NoticeSearchResult,
  PostSearchResult,
  SearchReply,
  SearchType,
  TagSearchResult,
  UserSearchResult,
} from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { hasStatus } from '../../../lib/query-client';
import { searchPaths } from './search-paths';

/** What each type's results are (the reply's `results` hold one kind, by `type`). */
export interface SearchResultOf {
  posts: PostSearchResult;
  notices: NoticeSearchResult;
  users: UserSearchResult;
  tags: TagSearchResult;
}

/** One page, with the query it answered: later pages ask with the corrected one (decision 034). */
export interface SearchPage<T extends SearchType> {
  reply: SearchReply<SearchResultOf[T]>;
  q: string;
}

/** Where the next page starts: the cursor and the query it belongs to. */
type SearchPageParam = { cursor: string; q: string } | null;

async function getSearchPage<T extends SearchType>(
  q: string,
  type: T,
  param: SearchPageParam,
  signal: AbortSignal,
): Promise<SearchPage<T>> {
  const asked = param?.q ?? q;
  const reply = await api<SearchReply<SearchResultOf[T]>>(searchPaths.results(asked, type, param?.cursor ?? null), {
    signal,
  });
  return { reply, q: reply.correctedQuery ?? asked };
}

/**
 * The results page's list of one type. `viewerId` keys it per reader: a signed-in reader's muted
 * tags leave posts out. A 400 (a query with nothing to look for, a type the server cannot search
 * yet) is the query's fault and the page shows the server's sentence in place of the results; any
 * other failure is the error policy's toast.
 */
export function useSearchResults<T extends SearchType>(q: string, type: T, viewerId: string | null) {
  return useInfiniteQuery({
    queryKey: ['search', type, q, viewerId] as const,
    queryFn: ({ pageParam, signal }) => getSearchPage(q, type, pageParam, signal),
    initialPageParam: null as SearchPageParam,
    getNextPageParam: (last: SearchPage<T>): SearchPageParam =>
      last.reply.nextCursor === null ? null : { cursor: last.reply.nextCursor, q: last.q },
    enabled: q.trim().length > 0,
    meta: {
      errorToast: { title: 'Oops', description: 'there was an issue while searching!', except: hasStatus(400) },
    },
  });
}
