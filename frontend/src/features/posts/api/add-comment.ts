import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** PUT /api/comment: answers the post with its comments; the key makes a retry return the first reply. */
export function addComment(postId: string, text: string, idempotencyKey?: string): Promise<Post> {
  return api<Post>(postPaths.comment(), { method: 'PUT', body: { postId, text }, idempotencyKey });
}

/** No errorToast: the spec keeps comment errors on the console (lib/query-client.ts logs them). */
export function useAddComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The thread (comment-list.tsx) watches this key to scroll to the comment once it is posted.
    mutationKey: postKeys.addComment(postId),
    mutationFn: ({ text, idempotencyKey }: { text: string; idempotencyKey?: string }) =>
      addComment(postId, text, idempotencyKey),
    onSuccess: (post) => {
      updateCachedPost(queryClient, post);
      void queryClient.invalidateQueries({ queryKey: postKeys.top() });
    },
  });
}
