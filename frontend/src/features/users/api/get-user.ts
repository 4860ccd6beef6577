import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { hasStatus } from '../../../lib/query-client';
import { userPaths } from './user-paths';

/** Every cached profile lives under this key, so a change to one can update it in place. */
export const userQueryKey = (userId: string) => ['users', userId] as const;

export async function getUser(userId: string, signal?: AbortSignal): Promise<UserReply> {
  const path = userPaths.user(userId);
  return (await takeBootReply<UserReply>(path)) ?? (await api<UserReply>(path, { signal }));
}

/** The profile page's query (a 404 is its empty state, any other failure a toast). */
export function userQuery(userId: string) {
  return queryOptions({
    queryKey: userQueryKey(userId),
    queryFn: ({ signal }) => getUser(userId, signal),
    meta: {
      errorToast: {
        title: 'Oops',
        description: "There was an issue while getting the user, it probably doesn't exist!",
        except: hasStatus(404),
      },
    },
  });
}

export function useUser(userId: string) {
  return useQuery(userQuery(userId));
}
