import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';

/** DELETE /api/comment/:postId/:commentId (the comment's author, the post's author or an admin) */
export function deleteComment(postId: string, commentId: string): Promise<Post> {
  return api<Post>(`/comment/${encodeURIComponent(postId)}/${encodeURIComponent(commentId)}`, { method: 'DELETE' });
}

/** No errorToast: the spec keeps comment errors on the console (lib/query-client.ts logs them). */
export function useDeleteComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(postId, commentId),
    onSuccess: (post) => {
      updateCachedPost(queryClient, post);
      void queryClient.invalidateQueries({ queryKey: postKeys.top() });
    },
  });
}
