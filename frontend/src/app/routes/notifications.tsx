import { SettingOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { ButtonLink } from '../../components/button-link';
import { paths } from '../../config/paths';
import { NotificationList } from '../../features/notifications/components/notification-list';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';

const PAGE = { maxWidth: 800, margin: '0 auto' } as const;

/** /notifications — the signed-in user's notifications (the route needs a session). */
export default function NotificationsPage() {
  useDocumentTitle('Notifications');
  const { user } = useSession();
  return (
    <div className="notifications-page" style={PAGE}>
      <div
        style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12, marginBottom: 16 }}
      >
        <Typography.Title level={1} style={{ fontSize: 26, margin: 0 }}>
          Notifications
        </Typography.Title>
        {user && (
          <ButtonLink to={paths.profileSettings(user._id)} icon={<SettingOutlined aria-hidden />}>
            Settings
          </ButtonLink>
        )}
      </div>
      <NotificationList />
    </div>
  );
}
