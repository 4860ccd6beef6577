import { useInfiniteQuery } from '@tanstack/react-query';
import type { NoticeListReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { noticeListPaging, noticesQueryKey, pageQuery } from './notice-list-cache';

export const allNoticesQueryKey = [...noticesQueryKey, 'all'] as const;

export function getAllNotices(cursor: string | null, signal?: AbortSignal): Promise<NoticeListReply> {
  return api<NoticeListReply>(`/allnotices?${pageQuery(cursor)}`, { signal });
}

export function useAllNotices() {
  return useInfiniteQuery({
    queryKey: allNoticesQueryKey,
    queryFn: ({ pageParam, signal }) => getAllNotices(pageParam, signal),
    ...noticeListPaging,
    meta: { errorToast: { title: 'Oops, there was an issue fetching the notices!' } },
  });
}
