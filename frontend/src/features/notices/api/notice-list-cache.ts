import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { NoticeListReply } from '@techit/contract/api-types';
import { PAGINATION } from '@techit/contract/limits';

/** Every cached notice list lives under this key: all notices, and one list per author. */
export const noticesQueryKey = ['notices'] as const;

export type NoticePages = InfiniteData<NoticeListReply, string | null>;

export const noticeListPaging = {
  initialPageParam: null as string | null,
  getNextPageParam: (last: NoticeListReply) => last.nextCursor,
};

/** `?limit=…&cursor=…` for one page of a notice list. */
export function pageQuery(cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(PAGINATION.listPageSize) });
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

/** Takes a deleted notice out of every cached list at once. */
export function removeNoticeFromLists(queryClient: QueryClient, noticeId: string): void {
  queryClient.setQueriesData<NoticePages>({ queryKey: noticesQueryKey }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, notices: page.notices.filter((n) => n._id !== noticeId) })),
        }
      : data,
  );
}
