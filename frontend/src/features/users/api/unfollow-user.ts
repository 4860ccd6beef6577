import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { applyFollowChange } from './apply-follow-change';

export function unfollowUser(unfollowId: string): Promise<Me> {
  return api<Me>('/unfollow', { method: 'PUT', body: { unfollowId } });
}

/** Stops following `userId`; the reply is the viewer, updated, which becomes the stored user. */
export function useUnfollowUser(userId: string) {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: () => unfollowUser(userId),
    meta: { errorToast: { title: 'Oops', description: 'there was an issue while unfollowing this user!' } },
    onSuccess: (me) => {
      updateUser(me);
      applyFollowChange(queryClient, userId, me, 'unfollow');
    },
  });
}
