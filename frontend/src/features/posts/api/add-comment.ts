import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';

/** PUT /api/comment: answers the post with its comments. */
export function addComment(postId: string, text: string): Promise<Post> {
  return api<Post>('/comment', { method: 'PUT', body: { postId, text } });
}

/** A failure says so with the server's reason; the text stays in the box (a 401 has its own toast). */
export function useAddComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => addComment(postId, text),
    meta: { errorToast: { title: 'Could not post your comment', withReason: everyFailure, except: hasStatus(401) } },
    onSuccess: (post) => {
      updateCachedPost(queryClient, post);
      void queryClient.invalidateQueries({ queryKey: postKeys.top() });
    },
  });
}
