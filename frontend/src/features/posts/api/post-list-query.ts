import { type InfiniteData, infiniteQueryOptions } from '@tanstack/react-query';
import type { FailureMeta } from '../../../lib/query-client';
import type { PageCursor, PostListKey, PostPage } from './post-keys';

/**
 * The shape both post lists share: pages chained by the server's cursor (never page numbers, so
 * a post created while someone scrolls is neither repeated nor skipped), ending at a null cursor.
 */
export function postListQuery(
  queryKey: PostListKey,
  fetchPage: (cursor: PageCursor, signal: AbortSignal) => Promise<PostPage>,
  meta: FailureMeta,
) {
  return infiniteQueryOptions<PostPage, Error, InfiniteData<PostPage, PageCursor>, PostListKey, PageCursor>({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    meta,
  });
}

export function pageQuery(params: Record<string, string | number | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null) search.set(name, String(value));
  return search.toString();
}
