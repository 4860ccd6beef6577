import { pageQuery } from '../../../lib/cursor-pages';

/** The API addresses of the notifications (under /api), built in one place. No browser code. */
export const notificationPaths = {
  /** GET /api/notifications?limit=&cursor= */
  list: (cursor: string | null, limit: number) => `/notifications?${pageQuery({ limit, cursor })}`,
  /** GET /api/notifications/unread-count */
  unreadCount: '/notifications/unread-count',
  /** PUT /api/notifications/read {ids} | {all: true} */
  read: '/notifications/read',
  /** GET /api/notifications/stream (Server-Sent Events, the login token in the Authorization header) */
  stream: '/notifications/stream',
  /** GET and PUT /api/notification-settings */
  settings: '/notification-settings',
};
