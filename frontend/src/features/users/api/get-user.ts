import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { userPaths } from './user-paths';

/** Every cached profile lives under this key, so a change to one can update it in place. */
export const userQueryKey = (userId: string) => ['users', userId] as const;

export async function getUser(userId: string, signal?: AbortSignal): Promise<UserReply> {
  const path = userPaths.user(userId);
  return (await takeBootReply<UserReply>(path)) ?? (await api<UserReply>(path, { signal }));
}

export function userQuery(userId: string) {
  return queryOptions({ queryKey: userQueryKey(userId), queryFn: ({ signal }) => getUser(userId, signal) });
}

export function useUser(userId: string) {
  return useQuery(userQuery(userId));
}
