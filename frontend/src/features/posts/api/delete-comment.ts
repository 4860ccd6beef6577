import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { removeCachedComment, updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** DELETE /api/comment/:postId/:commentId (the comment's author, the post's author or an admin) */
export function deleteComment(postId: string, commentId: string): Promise<Post> {
  return api<Post>(postPaths.deleteComment(postId, commentId), { method: 'DELETE' });
}

/** No errorToast: the spec keeps comment errors on the console (lib/query-client.ts logs them). */
export function useDeleteComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(postId, commentId),
    onSuccess: (post, commentId) => {
      updateCachedPost(queryClient, post);
      removeCachedComment(queryClient, post._id, commentId);
      void queryClient.invalidateQueries({ queryKey: postKeys.top() });
    },
  });
}
