import type { Notification } from '@techit/contract/api-types';
import { Link } from 'react-router-dom';
import { UserAvatar } from '../../../components/user-avatar';
import { formatExactTime, formatRelativeTime } from '../../../lib/relative-time';
import { actionText, actorsText, notificationTarget } from './notification-text';

interface NotificationItemProps {
  notification: Notification;
  /** Called when it is opened (a click, Enter): an unread one becomes read. */
  onOpen: (notification: Notification) => void;
}

/** One notification as a link to what it is about: who, what, where, when; unread ones stand out. */
export function NotificationItem({ notification, onOpen }: NotificationItemProps) {
  const actor = notification.actors[0];
  const detail = notification.comment?.excerpt ?? notification.notice?.excerpt ?? notification.post?.title ?? '';
  const where = notification.comment && notification.post ? notification.post.title : '';
  return (
    <Link
      to={notificationTarget(notification)}
      className={`notification-item${notification.read ? '' : ' is-unread'}`}
      onClick={() => onOpen(notification)}
    >
      <span aria-hidden className="notification-avatar">
        <UserAvatar pic={actor?.pic} userName={actor?.userName ?? 'Someone'} size={40} />
      </span>
      <span className="notification-body">
        <span className="notification-sentence">
          {!notification.read && <span className="visually-hidden">Unread: </span>}
          <strong>{actorsText(notification)}</strong> {actionText(notification)}
        </span>
        {detail && <span className="notification-detail">{detail}</span>}
        {where && <span className="notification-where">on “{where}”</span>}
        <time
          className="notification-time"
          dateTime={notification.createdAt}
          title={formatExactTime(notification.createdAt)}
        >
          {formatRelativeTime(notification.createdAt, Date.now())}
        </time>
      </span>
      {!notification.read && <span className="notification-dot" aria-hidden />}
    </Link>
  );
}
