import type { Tag } from '@techit/contract/api-types';
import { Button, Skeleton } from 'antd';
import { feedPath } from '@techit/contract/feed-paths';
import { ButtonLink } from '../../../components/button-link';
import { FeedLink } from '../../../components/feed-link';
import { Card } from '../../../components/surface-card';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import { useChangeTagPreference } from '../api/change-tag-preference';
import { useTag } from '../api/get-tag';
import './tags.css';

function count(n: number, one: string, many: string) {
  return (
    <span className="tag-count">
      <strong>{n}</strong> {n === 1 ? one : many}
    </span>
  );
}

/**
 * The tag page's head: its name, how many posts carry it and how many people follow it, and for a
 * signed-in reader Follow / Unfollow and Mute / Unmute (a tag is one or the other, never both: the
 * server turns the other off). A visitor is invited to log in instead. The tag's RSS feed is linked
 * beside its counts.
 */
export function TagHeader({ name }: { name: string }) {
  const { user } = useSession();
  const query = useTag(name, user?._id ?? null);
  const tag = query.data;
  return (
    <Card className="tag-header">
      <h1 className="tag-name">#{name}</h1>
      {tag ? (
        <div className="tag-counts">
          {count(tag.postsCount, 'post', 'posts')}
          {count(tag.followersCount, 'follower', 'followers')}
          <FeedLink href={feedPath({ kind: 'tag', name }, 'rss')} label={`RSS feed of #${name}`} />
        </div>
      ) : (
        <Skeleton active title={false} paragraph={{ rows: 1, width: 160 }} />
      )}
      {user ? (
        tag && <TagActions tag={tag} />
      ) : (
        <div className="tag-actions">
          <p className="tag-visitor">Log in to follow this tag (its posts gather in “Your tags”) or to mute it.</p>
          <ButtonLink to={paths.login} type="primary">
            Log in
          </ButtonLink>
          <ButtonLink to={paths.signup}>Sign up</ButtonLink>
        </div>
      )}
    </Card>
  );
}

function TagActions({ tag }: { tag: Tag }) {
  const change = useChangeTagPreference(tag.name);
  const busy = change.isPending;
  return (
    <div className="tag-actions">
      {/* No `loading` spinner: the label flips when the server answers, and a spinner would
          become part of the button's name (as FollowButton). */}
      <Button
        type={tag.following ? 'default' : 'primary'}
        aria-busy={busy}
        onClick={() => !busy && change.mutate(tag.following ? 'unfollow' : 'follow')}
      >
        {tag.following ? 'Unfollow' : 'Follow'}
      </Button>
      <Button
        danger={!tag.muted}
        aria-busy={busy}
        onClick={() => !busy && change.mutate(tag.muted ? 'unmute' : 'mute')}
      >
        {tag.muted ? 'Unmute' : 'Mute'}
      </Button>
      {tag.muted && (
        <p className="tag-muted-note">Muted: this tag's posts are left out of your feeds and the top posts.</p>
      )}
    </div>
  );
}
