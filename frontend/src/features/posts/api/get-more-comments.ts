import { useInfiniteQuery } from '@tanstack/react-query';
import type { CommentsReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** GET /api/posts/:id/comments?cursor=…: the next page of a thread, oldest first. */
export function getCommentsPage(postId: string, cursor: string, signal?: AbortSignal): Promise<CommentsReply> {
  return api<CommentsReply>(postPaths.commentsPage(postId, cursor), { signal });
}

/**
 * The comments of a long thread after the first page, which the post itself carries (`after` is its
 * commentsNextCursor). Loaded only when asked ("Show more comments", or to reach a comment just
 * posted at the end): a thread of hundreds is not fetched to read the post.
 */
export function useMoreComments(postId: string, after: string) {
  return useInfiniteQuery({
    queryKey: postKeys.moreComments(postId, after),
    queryFn: ({ pageParam, signal }) => getCommentsPage(postId, pageParam, signal),
    initialPageParam: after,
    getNextPageParam: (lastPage: CommentsReply) => lastPage.nextCursor ?? undefined,
    enabled: false,
    meta: { errorToast: { title: 'Could not load more comments', description: 'Please try again.' } },
  });
}
