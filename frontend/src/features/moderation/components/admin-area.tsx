import { useSearchParams } from 'react-router-dom';
import { type TabItem, Tabs } from '../../../components/surface-tabs';
import { ButtonLink } from '../../../components/button-link';
import { paths } from '../../../config/paths';
import { AdminUsers } from './admin-users';
import { ModerationLogList } from './moderation-log-list';
import { ReportQueue } from './report-queue';
import './moderation.css';

type AdminTab = 'reports' | 'users' | 'log';

const TABS: TabItem<AdminTab>[] = [
  { key: 'reports', label: 'Reports' },
  { key: 'users', label: 'Users' },
  { key: 'log', label: 'Log' },
];

/** /admin: the report queue, the users, and the moderation log (moderators and admins). */
export function AdminArea() {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: AdminTab = asked === 'users' || asked === 'log' ? asked : 'reports';
  const choose = (next: AdminTab) =>
    setSearch(new URL(paths.admin(next), window.location.origin).searchParams, { replace: true });
  return (
    <div className="moderation-page">
      <h1 className="moderation-heading">Admin</h1>
      <Tabs items={TABS} activeKey={tab} onChange={choose}>
        {tab === 'reports' ? (
          <ReportQueue />
        ) : tab === 'users' ? (
          <AdminUsers />
        ) : (
          <>
            <p>
              <ButtonLink to={paths.moderationLog} type="link">
                The public moderation log
              </ButtonLink>
            </p>
            <ModerationLogList />
          </>
        )}
      </Tabs>
    </div>
  );
}
