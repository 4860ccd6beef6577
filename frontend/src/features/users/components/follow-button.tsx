import type { ProfileUser } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useRequireLogin } from '../../../components/use-require-login';
import { useSession } from '../../../lib/session';
import { useFollowUser } from '../api/follow-user';
import { useUnfollowUser } from '../api/unfollow-user';

/** Follow, or Unfollow when the viewer is among the profile's followers; visitors are asked to log in. */
export function FollowButton({ profile }: { profile: ProfileUser }) {
  const { user } = useSession();
  const requireLogin = useRequireLogin();
  const follow = useFollowUser(profile._id);
  const unfollow = useUnfollowUser(profile._id);
  const following = !!user && profile.followers.includes(user._id);
  const busy = follow.isPending || unfollow.isPending;

  const toggle = () =>
    requireLogin('Please login to follow a user', () => {
      if (busy) return;
      if (following) unfollow.mutate();
      else follow.mutate();
    });

  return (
    // No `loading` spinner: the label flips as soon as the server answers, and a spinner icon
    // would become part of the button's accessible name ("loading Follow").
    <Button type={following ? 'default' : 'primary'} aria-busy={busy} onClick={toggle}>
      {following ? 'Unfollow' : 'Follow'}
    </Button>
  );
}
