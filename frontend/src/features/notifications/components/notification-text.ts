import type { Notification } from '@techit/contract/api-types';
import { commentPath, paths } from '../../../config/paths';

/** Who did it: "ada", or for a grouped like "ada and 12 others" (actorsCount counts them all). */
export function actorsText(notification: Notification): string {
  const first = notification.actors[0]?.userName ?? 'Someone';
  const others = notification.actorsCount - 1;
  if (others <= 0) return first;
  return `${first} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

/** What they did, after the names. */
export function actionText(notification: Notification): string {
  switch (notification.kind) {
    case 'like':
      return 'liked your post';
    case 'comment':
      return 'commented on your post';
    case 'reply':
      return 'replied to your comment';
    case 'mention':
      return notification.comment
        ? 'mentioned you in a comment'
        : notification.notice
          ? 'mentioned you in a notice'
          : 'mentioned you';
    case 'follow':
      return 'followed you';
  }
}

/**
 * Where opening it leads: the comment's permalink for a comment, reply or mention in a comment;
 * the post for a like or a mention in a post; the follower's profile; the notices for a mention
 * in a notice.
 */
export function notificationTarget(notification: Notification): string {
  const { post, comment, notice } = notification;
  if (notification.kind === 'follow' && notification.actors[0]) return paths.profile(notification.actors[0]._id);
  if (post && comment) return commentPath(post._id, comment._id);
  if (post) return paths.post(post._id);
  if (notice) return paths.notices;
  return paths.notifications;
}
