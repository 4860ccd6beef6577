import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationsReply } from '@techit/contract/api-types';
import { NOTIFICATIONS } from '@techit/contract/limits';
import { api } from '../../../lib/api-client';
import { cursorPaging, type PageCursor } from '../../../lib/cursor-pages';
import { notificationListQueryKey, setUnreadCount } from './notification-cache';
import { notificationPaths } from './notification-paths';

export function getNotifications(cursor: PageCursor, signal?: AbortSignal): Promise<NotificationsReply> {
  return api<NotificationsReply>(notificationPaths.list(cursor, NOTIFICATIONS.defaultLimit), { signal });
}

/** The signed-in user's notifications, newest first, a page at a time ("Load more"). */
export function useNotifications() {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: notificationListQueryKey,
    queryFn: async ({ pageParam, signal }) => {
      const reply = await getNotifications(pageParam, signal);
      // Each page carries the unread count of its moment: the bells follow the newest.
      setUnreadCount(queryClient, reply.unreadCount);
      return reply;
    },
    ...cursorPaging,
    // The live client refreshes it when something changes; reopening the page shows the cache at once.
    staleTime: Infinity,
    meta: { errorToast: { title: 'Oops, there was an issue fetching your notifications!' } },
  });
}
