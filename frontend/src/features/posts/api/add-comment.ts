import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/**
 * PUT /api/comment: answers the post with its comments; the key makes a retry return the first
 * reply. `parentId`: a reply to that comment.
 */
export function addComment(postId: string, text: string, idempotencyKey?: string, parentId?: string): Promise<Post> {
  const body = parentId ? { postId, text, parentId } : { postId, text };
  return api<Post>(postPaths.comment(), { method: 'PUT', body, idempotencyKey });
}

/** A failure says so with the server's reason; the text stays in the box (a 401 has its own toast). */
export function useAddComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The thread (comment-list.tsx) watches this key to scroll to the comment once it is posted.
    mutationKey: postKeys.addComment(postId),
    mutationFn: ({ text, idempotencyKey, parentId }: { text: string; idempotencyKey?: string; parentId?: string }) =>
      addComment(postId, text, idempotencyKey, parentId),
    meta: { errorToast: { title: 'Could not post your comment', withReason: everyFailure, except: hasStatus(401) } },
    onSuccess: (post) => {
      updateCachedPost(queryClient, post);
      // A subthread on screen ("?thread=", a permalink's) takes the reply in.
      void queryClient.invalidateQueries({ queryKey: postKeys.threadsOf(postId) });
      void queryClient.invalidateQueries({ queryKey: postKeys.tops() });
    },
  });
}
