import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Notification, NotificationsReply, UnreadCountReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { placeInOrder } from './notification-order';
import { notificationPaths } from './notification-paths';

/**
 * The two caches the notifications live in: the unread count (the bells) and the list (the
 * notifications page). The live client (live/live-notifications.ts), the page's own reads and the
 * "mark read" calls all change them through the functions here, so they agree.
 */
export const notificationsQueryKey = ['notifications'] as const;
export const unreadCountQueryKey = [...notificationsQueryKey, 'unread-count'] as const;
export const notificationListQueryKey = [...notificationsQueryKey, 'list'] as const;

export type NotificationPages = InfiniteData<NotificationsReply, string | null>;

export function getUnreadCount(signal?: AbortSignal): Promise<UnreadCountReply> {
  return api<UnreadCountReply>(notificationPaths.unreadCount, { signal });
}

/**
 * The bells' count. Never stale by time: the live client keeps it current (a stream event, a poll,
 * a catch-up when the tab comes back), so nothing here asks again on its own.
 */
export const unreadCountQuery = {
  queryKey: unreadCountQueryKey,
  queryFn: ({ signal }: { signal: AbortSignal }) => getUnreadCount(signal),
  staleTime: Infinity,
};

export function setUnreadCount(queryClient: QueryClient, unreadCount: number): void {
  queryClient.setQueryData<UnreadCountReply>(unreadCountQueryKey, { unreadCount });
}

/** A notification that is new or has changed: in the list where the server's order puts it, once. */
export function putInOrder(queryClient: QueryClient, notification: Notification): void {
  queryClient.setQueryData<NotificationPages>(notificationListQueryKey, (pages) =>
    pages ? { ...pages, pages: placeInOrder(pages.pages, notification) } : pages,
  );
}

/** Marks these notifications (or all: null) read in the cached list. */
export function markReadInCache(queryClient: QueryClient, ids: readonly string[] | null): void {
  queryClient.setQueryData<NotificationPages>(notificationListQueryKey, (pages) =>
    pages
      ? {
          ...pages,
          pages: pages.pages.map((page) => ({
            ...page,
            notifications: page.notifications.map((item) =>
              !item.read && (ids === null || ids.includes(item._id)) ? { ...item, read: true } : item,
            ),
          })),
        }
      : pages,
  );
}
