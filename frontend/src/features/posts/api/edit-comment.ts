import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { getThread } from './get-thread';
import { replaceCachedComment, updateCachedPost } from './post-cache';
import { postPaths } from './post-paths';

/** PUT /api/comment/:postId/:commentId {text}: the author rewrites it; answers the post like PUT /api/comment. */
export function editComment(postId: string, commentId: string, text: string): Promise<Post> {
  return api<Post>(postPaths.deleteComment(postId, commentId), { method: 'PUT', body: { text } });
}

/**
 * The post's reply carries its first page only: a comment further down the thread is read again
 * (its subthread, which carries it with the server's rendering) to update the pages that hold it.
 * A failure says so with the server's reason, and the text stays in the box.
 */
export function useEditComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, text }: { commentId: string; text: string }) => editComment(postId, commentId, text),
    meta: { errorToast: { title: 'Could not save your comment', withReason: everyFailure, except: hasStatus(401) } },
    onSuccess: async (post, { commentId }) => {
      updateCachedPost(queryClient, post);
      const edited =
        post.comments.find((comment) => comment._id === commentId) ??
        (await getThread(postId, commentId).then(
          (reply) => reply.comments.find((comment) => comment._id === commentId),
          () => undefined,
        ));
      if (edited) replaceCachedComment(queryClient, postId, edited);
    },
  });
}
