import { useInfiniteQuery } from '@tanstack/react-query';
import type { NoticeListReply } from '@techit/contract/api-types';
import { PAGINATION } from '@techit/contract/limits';
import { api } from '../../../lib/api-client';
import { cursorPaging, type PageCursor, pageQuery } from '../../../lib/cursor-pages';
import { noticesQueryKey } from './notice-list-cache';

export const allNoticesQueryKey = [...noticesQueryKey, 'all'] as const;

export function getAllNotices(cursor: PageCursor, signal?: AbortSignal): Promise<NoticeListReply> {
  return api<NoticeListReply>(`/allnotices?${pageQuery({ limit: PAGINATION.listPageSize, cursor })}`, { signal });
}

export function useAllNotices() {
  return useInfiniteQuery({
    queryKey: allNoticesQueryKey,
    queryFn: ({ pageParam, signal }) => getAllNotices(pageParam, signal),
    ...cursorPaging,
    meta: { errorToast: { title: 'Oops, there was an issue fetching the notices!' } },
  });
}
