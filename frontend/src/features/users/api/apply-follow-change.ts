import type { QueryClient } from '@tanstack/react-query';
import type { Me, UserReply } from '@techit/contract/api-types';
import { userQueryKey } from './get-user';

/**
 * After a follow or unfollow: the follower count of the followed profile changes at once, both
 * profiles are refreshed from the server, and every other cached list (the following feed above
 * all) is marked stale so it is fetched afresh the next time it is shown.
 */
export function applyFollowChange(
  queryClient: QueryClient,
  userId: string,
  me: Me,
  change: 'follow' | 'unfollow',
): void {
  queryClient.setQueryData<UserReply>(userQueryKey(userId), (reply) => {
    if (!reply) return reply;
    const others = reply.user.followers.filter((id) => id !== me._id);
    // The rest of the reply (the reader's viewer field) stays: the block and mute menu keeps its state.
    return { ...reply, user: { ...reply.user, followers: change === 'follow' ? [...others, me._id] : others } };
  });
  queryClient.setQueryData<UserReply>(userQueryKey(me._id), (reply) => (reply ? { user: me } : reply));
  void queryClient.invalidateQueries({ refetchType: 'none' });
  void queryClient.invalidateQueries({ queryKey: userQueryKey(userId) });
}
