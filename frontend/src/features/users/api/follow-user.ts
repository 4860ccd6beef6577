import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { hasStatus } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import { applyFollowChange } from './apply-follow-change';

export function followUser(followId: string): Promise<Me> {
  return api<Me>('/follow', { method: 'PUT', body: { followId } });
}

/** Follows `userId`; the reply is the viewer, updated, which becomes the stored user. */
export function useFollowUser(userId: string) {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: () => followUser(userId),
    meta: {
      errorToast: {
        title: 'Oops',
        description: 'there was an issue while following this user!',
        // A block's refusal says why (decision 048).
        withReason: hasStatus(403),
      },
    },
    onSuccess: (me) => {
      updateUser(me);
      applyFollowChange(queryClient, userId, me, 'follow');
    },
  });
}
