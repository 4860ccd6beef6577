import { useQuery } from '@tanstack/react-query';
import type { CommentsReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { hasStatus } from '../../../lib/query-client';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** GET /api/posts/:id/comments?thread=…: the comment's ancestors (root first), itself and all its replies. */
export function getThread(postId: string, commentId: string, signal?: AbortSignal): Promise<CommentsReply> {
  return api<CommentsReply>(postPaths.thread(postId, commentId), { signal });
}

/**
 * One comment's subthread: the "?thread=" view ("Continue this thread") and a permalink to a
 * comment the first page does not hold. `commentId` null: nothing asked. A 404 (the comment is
 * gone) is the screen's own message.
 */
export function useCommentThread(postId: string, commentId: string | null) {
  return useQuery({
    queryKey: postKeys.thread(postId, commentId ?? ''),
    queryFn: ({ signal }) => getThread(postId, commentId ?? '', signal),
    enabled: commentId !== null,
    meta: {
      errorToast: {
        title: 'Could not load this conversation',
        description: 'Please try again.',
        except: hasStatus(404),
      },
    },
  });
}
