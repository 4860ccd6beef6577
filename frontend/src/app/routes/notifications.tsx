import { SettingOutlined } from '@ant-design/icons';
import { ButtonLink } from '../../components/button-link';
import { paths } from '../../config/paths';
import { NotificationList } from '../../features/notifications/components/notification-list';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';

const PAGE = { maxWidth: 800, margin: '0 auto' } as const;

// A plain heading (notifications.css), not antd's Typography.Title: Typography brings its
// editable and copyable parts (TextArea, Tooltip: about 40 KB of script and CSS) into the route's
// chunk, and the heading is this page's largest paint.
/** /notifications — the signed-in user's notifications (the route needs a session). */
export default function NotificationsPage() {
  useDocumentTitle('Notifications');
  const { user } = useSession();
  return (
    <div className="notifications-page" style={PAGE}>
      <div className="notifications-header">
        <h1 className="notifications-heading">Notifications</h1>
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
