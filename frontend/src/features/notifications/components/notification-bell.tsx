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
  const badge =
    unreadCount > 0 ? (
      <span className="bell-badge" aria-hidden data-testid="bell-badge">
        {unreadCount > BADGE_MAX ? `${BADGE_MAX}+` : unreadCount}
      </span>
    ) : null;
  const icon = (
    <span className="bell-icon">
      <BellOutlined aria-hidden />
      {badge}
    </span>
  );
  if (variant === 'bottom') {
    return (
      <NavLink to={paths.notifications} className="bottom-nav-item" aria-label={bellLabel(unreadCount)}>
        {icon}
      </NavLink>
    );
  }
  return (
    <NavLink to={paths.notifications} className="nav-link" aria-label={bellLabel(unreadCount)}>
      {icon} Notifications
    </NavLink>
  );
}
