import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LikeReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { updateCachedLikes } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** PUT /api/like: answers the post's likes as the caller now sees them. */
export function likePost(postId: string): Promise<LikeReply> {
  return api<LikeReply>(postPaths.like(true), { method: 'PUT', body: { postId } });
}

/** PUT /api/unlike: the same after taking the like back. */
export function unlikePost(postId: string): Promise<LikeReply> {
  return api<LikeReply>(postPaths.like(false), { method: 'PUT', body: { postId } });
}

/**
 * Like or unlike; the server's reply (likes and count) goes into every cached copy. No errorToast:
 * the spec keeps like errors on the console (lib/query-client.ts logs them).
 */
export function useToggleLike() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, like }: { postId: string; like: boolean }) => (like ? likePost(postId) : unlikePost(postId)),
    onSuccess: (reply) => {
      updateCachedLikes(queryClient, reply);
      void queryClient.invalidateQueries({ queryKey: postKeys.top() });
    },
  });
}
