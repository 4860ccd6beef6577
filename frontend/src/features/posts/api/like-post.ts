import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';

/** PUT /api/like: answers the updated post. */
export function likePost(postId: string): Promise<Post> {
  return api<Post>('/like', { method: 'PUT', body: { postId } });
}

/** PUT /api/unlike: answers the updated post. */
export function unlikePost(postId: string): Promise<Post> {
  return api<Post>('/unlike', { method: 'PUT', body: { postId } });
}

/** Like or unlike; the server's reply (likes and count) replaces every cached copy. */
export function useToggleLike() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, like }: { postId: string; like: boolean }) => (like ? likePost(postId) : unlikePost(postId)),
    onSuccess: (post) => {
      updateCachedPost(queryClient, post);
      void queryClient.invalidateQueries({ queryKey: postKeys.top() });
    },
    onError: (error) => console.warn('Liking the post failed:', error),
  });
}
