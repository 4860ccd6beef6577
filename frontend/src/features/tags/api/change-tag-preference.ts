import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Tag, TagReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { hasStatus } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import { type TagPreference, tagPaths } from '../../../lib/tag-paths';
import { tagQueryKey } from './get-tag';

/** PUT /api/tags/:name/follow|unfollow|mute|unmute (idempotent): the tag as it now stands. */
export async function changeTagPreference(name: string, change: TagPreference): Promise<Tag> {
  return (await api<TagReply>(tagPaths.preference(name, change), { method: 'PUT' })).tag;
}

/**
 * Follows, unfollows, mutes or unmutes a tag. The page shows the server's answer at once (a tag is
 * followed or muted, never both: the server turns the other off). Every other cached list is then
 * stale: "Your tags" gains or loses the tag's posts, and a mute takes them out of every feed and
 * the top posts, so each is fetched afresh the next time it is shown (as a user follow does).
 */
export function useChangeTagPreference(name: string) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: (change: TagPreference) => changeTagPreference(name, change),
    meta: {
      errorToast: {
        title: 'Oops',
        description: 'there was an issue while changing this tag!',
        // A 401 has already ended the session, with its own toast.
        except: hasStatus(401),
      },
    },
    onSuccess: (tag) => {
      // Everything stale (this tag's page too: another tab may change it), nothing refetched now.
      void queryClient.invalidateQueries({ refetchType: 'none' });
      queryClient.setQueryData<Tag>(tagQueryKey(name, user?._id ?? null), tag);
    },
  });
}
