import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { removeCachedComment, updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** DELETE /api/comment/:postId/:commentId (the comment's author, the post's author or an admin) */
export function deleteComment(postId: string, commentId: string): Promise<Post> {
  return api<Post>(postPaths.deleteComment(postId, commentId), { method: 'DELETE' });
}

/**
 * A comment with replies stays as "[deleted]". A failure says so with the server's reason, and the
 * comment stays (a 401 has its own toast).
 */
export function useDeleteComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(postId, commentId),
    meta: {
      errorToast: { title: 'Could not delete the comment', withReason: everyFailure, except: hasStatus(401) },
    },
    onSuccess: (post, commentId) => {
      removeCachedComment(queryClient, post._id, commentId);
      updateCachedPost(queryClient, post);
      void queryClient.invalidateQueries({ queryKey: postKeys.tops() });
    },
  });
}
