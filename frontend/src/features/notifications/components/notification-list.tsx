import { CheckOutlined } from '@ant-design/icons';
import type { Notification } from '@techit/contract/api-types';
import { useQuery } from '@tanstack/react-query';
import { Button, Skeleton } from 'antd';
import { LoadMoreButton } from '../../../components/load-more-button';
import { EmptyState } from '../../../components/empty-state';
import { useNotifications } from '../api/get-notifications';
import { useMarkRead } from '../api/mark-read';
import { unreadCountQuery } from '../api/notification-cache';
import { NotificationItem } from './notification-item';
import './notifications.css';

/** The signed-in user's notifications, newest first, with "Mark all read" and "Load more". */
export function NotificationList() {
  const { data, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage } = useNotifications();
  const unreadCount = useQuery(unreadCountQuery).data?.unreadCount ?? 0;
  const markRead = useMarkRead();
  const notifications = data?.pages.flatMap((page) => page.notifications) ?? [];

  const open = (notification: Notification) => {
    if (!notification.read) markRead.mutate({ ids: [notification._id] });
  };

  if (isPending) {
    return (
      <div role="status" aria-busy="true" aria-label="Loading notifications">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} avatar active paragraph={{ rows: 1 }} />
        ))}
      </div>
    );
  }
  return (
    <>
      <div className="notifications-toolbar">
        <span role="status" className="notifications-unread">
          {unreadCount > 0 ? `${unreadCount} unread` : 'All caught up'}
        </span>
        <Button
          icon={<CheckOutlined aria-hidden />}
          disabled={unreadCount === 0 && !notifications.some((item) => !item.read)}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all read
        </Button>
      </div>
      {notifications.length === 0 ? (
        isError ? null : (
          <EmptyState
            title="No notifications yet"
            subtitle="Likes, comments, replies, mentions and new followers show up here."
          />
        )
      ) : (
        <ul className="plain-list notification-list" aria-label="Notifications">
          {notifications.map((notification) => (
            <li key={notification._id}>
              <NotificationItem notification={notification} onOpen={open} />
            </li>
          ))}
        </ul>
      )}
      {hasNextPage && (
        <div className="notifications-more">
          <LoadMoreButton pages={{ hasNextPage, isFetchingNextPage, fetchNextPage }} />
        </div>
      )}
    </>
  );
}
