import { useInfiniteQuery } from '@tanstack/react-query';
import type { NoticeListReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { noticeListPaging, noticesQueryKey, pageQuery } from './notice-list-cache';

export const userNoticesQueryKey = (userId: string) => [...noticesQueryKey, 'user', userId] as const;

export function getUserNotices(userId: string, cursor: string | null, signal?: AbortSignal): Promise<NoticeListReply> {
  return api<NoticeListReply>(`/usernotices/${encodeURIComponent(userId)}?${pageQuery(cursor)}`, { signal });
}

export function useUserNotices(userId: string) {
  return useInfiniteQuery({
    queryKey: userNoticesQueryKey(userId),
    queryFn: ({ pageParam, signal }) => getUserNotices(userId, pageParam, signal),
    ...noticeListPaging,
    meta: { errorToast: { title: 'Oops', description: 'there was an issue while fetching user notices!' } },
  });
}
