import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../../../lib/session';
import { userQuery } from './get-user';

/**
 * The signed-in user's role as the server has it now. The stored copy of the user is written at
 * sign-in, so someone made a moderator (or no longer one) while signed in would otherwise keep the
 * old navigation and admin area until they signed in again (docs/decisions/047-moderation.md). The
 * server checks the role on every moderation request anyway; this only keeps the screens true.
 * Their own profile's query, shared with the profile page (no second request there).
 */
export function useOwnRoleSync(): void {
  const { user, updateUser } = useSession();
  const { data } = useQuery({ ...userQuery(user?._id ?? ''), enabled: user !== null });
  useEffect(() => {
    if (user && data && data.user._id === user._id && data.user.role !== user.role) {
      updateUser({ ...user, role: data.user.role });
    }
  }, [user, data, updateUser]);
}
