import { useInfiniteQuery } from '@tanstack/react-query';
import type { NoticeListReply } from '@techit/contract/api-types';
import { PAGINATION } from '@techit/contract/limits';
import { api } from '../../../lib/api-client';
import { cursorPaging, type PageCursor, pageQuery } from '../../../lib/cursor-pages';
import { noticesQueryKey } from './notice-list-cache';

export const userNoticesQueryKey = (userId: string) => [...noticesQueryKey, 'user', userId] as const;

export function getUserNotices(userId: string, cursor: PageCursor, signal?: AbortSignal): Promise<NoticeListReply> {
  return api<NoticeListReply>(
    `/usernotices/${encodeURIComponent(userId)}?${pageQuery({ limit: PAGINATION.listPageSize, cursor })}`,
    { signal },
  );
}

export function useUserNotices(userId: string) {
  return useInfiniteQuery({
    queryKey: userNoticesQueryKey(userId),
    queryFn: ({ pageParam, signal }) => getUserNotices(userId, pageParam, signal),
    ...cursorPaging,
    meta: { errorToast: { title: 'Oops', description: 'there was an issue while fetching user notices!' } },
  });
}
