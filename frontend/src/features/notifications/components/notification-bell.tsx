import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { unreadCountQuery } from '../api/notification-cache';
import './notification-bell.css';

/** Above this the badge says "99+". */
const BADGE_MAX = 99;

/** "Notifications, 3 unread": the bell's name, the count included (the badge itself is hidden from screen readers). */
export function bellLabel(unreadCount: number): string {
  return unreadCount > 0 ? `Notifications, ${unreadCount} unread` : 'Notifications';
}

/**
 * The bell of both navigation bars (shown to a signed-in user): a link to /notifications with the
 * unread count as a badge. The count is one cached query the live client keeps current.
 */
export function NotificationBell({ variant }: { variant: 'left' | 'bottom' }) {
  const unreadCount = useQuery(unreadCountQuery).data?.unreadCount ?? 0;
  const count = unreadCount > BADGE_MAX ? `${BADGE_MAX}+` : String(unreadCount);
  if (variant === 'bottom') {
    // The phone's bar has icons only: the count sits on the bell's corner.
    return (
      <NavLink to={paths.notifications} className="bottom-nav-item" aria-label={bellLabel(unreadCount)}>
        <span className="bell-icon">
          <BellOutlined aria-hidden />
          {unreadCount > 0 && (
            <span className="bell-badge is-over" aria-hidden>
              {count}
            </span>
          )}
        </span>
      </NavLink>
    );
  }
  // The left bar has room: the count follows the word, at the row's end.
  return (
    <NavLink to={paths.notifications} className="nav-link" aria-label={bellLabel(unreadCount)}>
      <BellOutlined aria-hidden /> Notifications
      {/* A space, so the text seen ("Notifications 3") is words of the name (axe label-content-name-mismatch). */}
      {unreadCount > 0 && ' '}
      {unreadCount > 0 && (
        <span className="bell-badge is-after" aria-hidden>
          {count}
        </span>
      )}
    </NavLink>
  );
}
