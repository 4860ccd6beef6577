import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { NoticeListReply } from '@techit/contract/api-types';
import type { PageCursor } from '../../../lib/cursor-pages';

/** Every cached notice list lives under this key: all notices, and one list per author. */
export const noticesQueryKey = ['notices'] as const;

export type NoticePages = InfiniteData<NoticeListReply, PageCursor>;

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
