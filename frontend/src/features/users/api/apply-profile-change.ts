import type { QueryClient } from '@tanstack/react-query';
import type { Me, UserReply } from '@techit/contract/api-types';
import { userQueryKey } from './get-user';

/**
 * A picture, bio or position change answers with the updated user: it becomes the stored user,
 * and replaces the cached own profile.
 */
export function applyProfileChange(
  queryClient: QueryClient,
  updateUser: (me: Me) => void,
  me: Me,
  { picture = false }: { picture?: boolean } = {},
): void {
  updateUser(me);
  queryClient.setQueryData<UserReply>(userQueryKey(me._id), { user: me });
  // Posts and notices show their author's picture: the ones on screen are fetched again.
  if (picture) void queryClient.invalidateQueries();
  else void queryClient.invalidateQueries({ queryKey: userQueryKey(me._id) });
}
