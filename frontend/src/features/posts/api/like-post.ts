import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LikeReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, type FailureMeta, hasStatus } from '../../../lib/query-client';
import { updateCachedLikes } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';
import { type ToggleKind, toggleAnswered, toggleAsked, toggleSettled } from './toggle-overlay';

/** PUT /api/like: answers the post's likes as the caller now sees them. */
export function likePost(postId: string): Promise<LikeReply> {
  return api<LikeReply>(postPaths.like(true), { method: 'PUT', body: { postId } });
}

/** PUT /api/unlike: the same after taking the like back. */
export function unlikePost(postId: string): Promise<LikeReply> {
  return api<LikeReply>(postPaths.like(false), { method: 'PUT', body: { postId } });
}

/** The like as a toggle of the overlay (toggle-overlay.ts): liked when the reply's likes hold the viewer. */
export const LIKE: ToggleKind<LikeReply> = {
  name: 'like',
  stateIn: (reply, viewerId) => reply.likes.includes(viewerId),
  write: updateCachedLikes,
};

/** A failed like says so with the server's reason (a 401 already ended the session with its own toast). */
const failure = (title: string): FailureMeta => ({
  errorToast: { title, withReason: everyFailure, except: hasStatus(401) },
});

/**
 * Like or unlike, optimistically: the heart and the count change at the click (toggle-overlay.ts),
 * and the requests for one post run one after another (`scope`), so quick clicks end in the state
 * of the last one, which is also the server's. A failure rolls the heart back to the server's
 * state and says what failed.
 */
export function useToggleLike(postId: string, viewerId: string | null) {
  const queryClient = useQueryClient();
  const shared = {
    scope: { id: `like:${postId}` },
    onSuccess: (reply: LikeReply) => toggleAnswered(LIKE, reply),
    onSettled: () => {
      toggleSettled(LIKE, queryClient, postId);
      void queryClient.invalidateQueries({ queryKey: postKeys.tops() });
    },
  };
  const like = useMutation({ ...shared, mutationFn: likePost, meta: failure('Could not like the post') });
  const unlike = useMutation({ ...shared, mutationFn: unlikePost, meta: failure('Could not unlike the post') });
  return (liked: boolean) => {
    if (viewerId === null) return;
    toggleAsked(LIKE, postId, viewerId, liked);
    (liked ? like : unlike).mutate(postId);
  };
}
