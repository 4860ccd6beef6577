import type { Notification, NotificationsReply } from '@techit/contract/api-types';

/** The list's order, as the server pages it: newest change first, then by id (descending). */
function comesBefore(a: Notification, b: Notification): boolean {
  return a.createdAt === b.createdAt ? a._id > b._id : a.createdAt > b.createdAt;
}

/**
 * The loaded pages with `notification` where the server's order puts it, once: a new one or one
 * that changed (a grouped like with one more liker) goes first, but one that arrives late — its
 * transaction committed after newer ones were sent — goes below those. One that sorts after every
 * loaded item is left for the next page to bring, unless the list has no next page.
 */
export function placeInOrder(pages: readonly NotificationsReply[], notification: Notification): NotificationsReply[] {
  const without = pages.map((page) => ({
    ...page,
    notifications: page.notifications.filter((item) => item._id !== notification._id),
  }));
  for (const page of without) {
    const at = page.notifications.findIndex((item) => comesBefore(notification, item));
    if (at !== -1) {
      page.notifications = [...page.notifications.slice(0, at), notification, ...page.notifications.slice(at)];
      return without;
    }
  }
  const last = without[without.length - 1];
  if (last && last.nextCursor === null) last.notifications = [...last.notifications, notification];
  return without;
}
