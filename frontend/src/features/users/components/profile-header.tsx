import type { ProfileUser } from '@techit/contract/api-types';
import { Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { feedPath } from '@techit/contract/feed-paths';
import { FeedLink } from '../../../components/feed-link';
import { Card } from '../../../components/surface-card';
import { UserAvatar } from '../../../components/user-avatar';
import { useSession } from '../../../lib/session';
import { EditProfileMenu } from './edit-profile-menu-lazy';
import { ReportButton } from '../../../components/report-button';
import { FollowButton } from './follow-button';
import './users.css';

function count(n: number, one: string, many: string) {
  return (
    <span className="profile-count">
      <strong>{n}</strong> {n === 1 ? one : many}
    </span>
  );
}

/**
 * Picture, name, position, follower and following counts, the RSS feed of their posts, bio; Edit
 * Profile, or Follow and `actions` (the page's block and mute menu) on someone else's profile.
 */
export function ProfileHeader({ profile, actions }: { profile: ProfileUser; actions?: ReactNode }) {
  const { user } = useSession();
  const own = user?._id === profile._id;
  return (
    <Card className="profile-header">
      <div className="profile-header-body">
        <UserAvatar pic={profile.pic} userName={profile.userName} size={112} />
        <div className="profile-header-text">
          <h1 className="profile-name">{profile.userName}</h1>
          {profile.position ? (
            <span className="profile-position">{profile.position}</span>
          ) : (
            own && (
              <span className="profile-position">
                <i>No position yet</i>
              </span>
            )
          )}
          <div className="profile-counts">
            {count(profile.followers.length, 'follower', 'followers')}
            {count(profile.following.length, 'following', 'following')}
            <FeedLink
              href={feedPath({ kind: 'user', id: profile._id }, 'rss')}
              label={`RSS feed of ${profile.userName}'s posts`}
            />
          </div>
          {profile.bio ? (
            <div className="profile-bio">{profile.bio}</div>
          ) : (
            own && (
              <div className="profile-bio is-empty">
                <i>No bio yet</i>
              </div>
            )
          )}
          <div className="profile-actions">
            {own && user ? (
              <EditProfileMenu me={user} />
            ) : (
              <>
                <FollowButton profile={profile} />
                {actions}
              </>
            )}
            <ReportButton
              targetKind="user"
              targetId={profile._id}
              authorId={profile._id}
              label={profile.userName}
              withText
            />
          </div>
        </div>
      </div>
    </Card>
  );
}

export function ProfileHeaderSkeleton() {
  return (
    <Card className="profile-header" role="status" aria-busy="true" aria-label="Loading profile">
      <div className="profile-header-body">
        <Skeleton.Avatar active size={112} />
        <Skeleton active paragraph={{ rows: 3 }} className="profile-header-text" />
      </div>
    </Card>
  );
}
