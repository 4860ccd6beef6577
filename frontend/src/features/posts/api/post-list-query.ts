import { type InfiniteData, infiniteQueryOptions } from '@tanstack/react-query';
import { cursorPaging, type PageCursor } from '../../../lib/cursor-pages';
import type { FailureMeta } from '../../../lib/query-client';
import type { PostListKey, PostPage } from './post-keys';

/** The shape both post lists share: pages chained by the server's cursor (lib/cursor-pages.ts). */
export function postListQuery(
  queryKey: PostListKey,
  fetchPage: (cursor: PageCursor, signal: AbortSignal) => Promise<PostPage>,
  meta: FailureMeta,
) {
  return infiniteQueryOptions<PostPage, Error, InfiniteData<PostPage, PageCursor>, PostListKey, PageCursor>({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    ...cursorPaging,
    meta,
  });
}
