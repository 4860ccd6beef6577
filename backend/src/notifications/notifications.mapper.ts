import type { Notification, NotificationSettings } from '@techit/contract/api-types';
import { NOTIFICATION_KINDS, type NotificationKind } from '@techit/contract/enums';
import { NOTIFICATIONS } from '@techit/contract/limits';
import { toAuthor } from '../users/users.mapper';
import type { ActorRow, NotificationWithTarget } from './notifications.repository';

/** Rows become the API's Notification here and only here. */
export function toNotification(row: NotificationWithTarget, actors: ActorRow[]): Notification {
  const notification: Notification = {
    _id: row.id,
    kind: row.kind,
    actors: actors.map(toAuthor),
    actorsCount: Number(row.actors_count),
    read: Number(row.read) === 1,
    createdAt: row.created_at,
  };
  if (row.post_id !== null && row.post_title !== null) notification.post = { _id: row.post_id, title: row.post_title };
  if (row.comment_id !== null) {
    // A "[deleted]" placeholder has no text left to quote.
    const text = Number(row.comment_deleted) === 1 ? '' : (row.comment_text ?? '');
    notification.comment = { _id: row.comment_id, excerpt: excerpt(text) };
  }
  if (row.notice_id !== null) notification.notice = { _id: row.notice_id, excerpt: excerpt(row.notice_text ?? '') };
  return notification;
}

/** The start of a text, on one line, at most NOTIFICATIONS.excerptMax characters (… when cut). */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= NOTIFICATIONS.excerptMax) return flat;
  return `${chars
    .slice(0, NOTIFICATIONS.excerptMax - 1)
    .join('')
    .trimEnd()}…`;
}

export function toSettings(off: ReadonlySet<NotificationKind>): NotificationSettings {
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !off.has(kind)])) as NotificationSettings;
}
