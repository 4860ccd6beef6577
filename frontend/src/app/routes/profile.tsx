import { lazy, Suspense, useDeferredValue } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/empty-state';
import { type TabItem, Tabs } from '../../components/surface-tabs';
import { paths } from '../../config/paths';
import { PostFeed } from '../../features/posts/components/post-feed';
import { useUser } from '../../features/users/api/get-user';
import { ProfileHeader, ProfileHeaderSkeleton } from '../../features/users/components/profile-header';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';

type Tab = 'posts' | 'notices' | 'settings';

const PAGE = { maxWidth: 800, margin: '0 auto' } as const;
const TABS: TabItem<Tab>[] = [
  { key: 'posts', label: 'Posts' },
  { key: 'notices', label: 'Notice' },
];
/** The own profile has a Settings tab too (where the profile is edited): the notification switches. */
const OWN_TABS: TabItem<Tab>[] = [...TABS, { key: 'settings', label: 'Settings' }];

// The Posts tab is what a profile opens on: the notices' code comes when their tab is first chosen.
const NoticeList = lazy(async () => ({
  default: (await import('../../features/notices/components/notice-list')).NoticeList,
}));
// Only a signed-in reader of someone else's profile has it (the reply's viewer field).
const ProfileRelationMenu = lazy(async () => ({
  default: (await import('../../features/blocks/components/profile-relation-menu')).ProfileRelationMenu,
}));
const NotificationSettingsPanel = lazy(async () => ({
  default: (await import('../../features/notifications/components/notification-settings-panel'))
    .NotificationSettingsPanel,
}));

/** /profile/:userid — the user's card, then their posts or notices (?tab=notices). */
export default function ProfilePage() {
  const userId = useParams().userid ?? '';
  const [search, setSearch] = useSearchParams();
  const own = useSession().user?._id === userId;
  const asked = search.get('tab');
  const tab: Tab = asked === 'notices' ? 'notices' : asked === 'settings' && own ? 'settings' : 'posts';
  const profile = useUser(userId);
  // Rendered in the background, in slices, when the reply arrives (see post-detail.tsx).
  const user = useDeferredValue(profile.data?.user);
  const viewer = profile.data?.viewer;
  const missing = profile.error instanceof ApiError && profile.error.status === 404;
  useDocumentTitle(profile.data?.user.userName ?? (missing ? 'User not found' : 'Profile'));

  if (missing) {
    return (
      <EmptyState
        title="This User doesn't exist!"
        subtitle="Try searching for another user or go to Home."
        searchLink
      />
    );
  }
  if (!user) {
    return profile.isError && !profile.data ? (
      <EmptyState title="This profile could not be loaded" subtitle="Try again later or go to Home." />
    ) : (
      <div style={PAGE}>
        <ProfileHeaderSkeleton />
      </div>
    );
  }

  const choose = (next: Tab) =>
    setSearch(next === 'posts' ? {} : { tab: next }, { replace: true, preventScrollReset: true });

  return (
    <div className="profile-page" style={PAGE}>
      <ProfileHeader
        profile={user}
        actions={
          viewer && (
            <Suspense fallback={null}>
              <ProfileRelationMenu userId={user._id} userName={user.userName} viewer={viewer} />
            </Suspense>
          )
        }
      />
      <Tabs items={own ? OWN_TABS : TABS} activeKey={tab} onChange={choose}>
        {tab === 'posts' ? (
          <PostFeed source={{ kind: 'user', userId }} />
        ) : tab === 'notices' ? (
          <Suspense fallback={null}>
            <NoticeList source={{ kind: 'user', userId }} />
          </Suspense>
        ) : (
          <Suspense fallback={null}>
            <NotificationSettingsPanel />
            <p className="profile-settings-more">
              <Link to={paths.settings}>All settings</Link>: password, email, your data, blocked and muted users,
              deleting your account.
            </p>
          </Suspense>
        )}
      </Tabs>
    </div>
  );
}
