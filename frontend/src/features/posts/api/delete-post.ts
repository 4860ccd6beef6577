import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post, TopPost } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { removeCachedPostFromLists } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** DELETE /api/deletepost/:id (its author or an admin) */
export function deletePost(postId: string): Promise<Post> {
  return api<Post>(postPaths.deletePost(postId), { method: 'DELETE' });
}

/**
 * The post leaves every list at once. Its own detail entry is dropped by the caller once no page
 * shows it any more (see forgetPost), so an open detail page does not refetch a 404 under the user.
 * A failure says so with the server's reason, and the post stays (a 401 has its own toast).
 */
export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    meta: { errorToast: { title: 'Could not delete the post', withReason: everyFailure, except: hasStatus(401) } },
    onSuccess: (_post, postId) => {
      removeCachedPostFromLists(queryClient, postId);
      queryClient.setQueriesData<TopPost[]>({ queryKey: postKeys.tops() }, (top) =>
        top?.filter((entry) => entry._id !== postId),
      );
      void queryClient.invalidateQueries({ queryKey: postKeys.tops() });
    },
  });
}
