import { HeartFilled, HeartOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useEffect } from 'react';
import { useRequireLogin } from '../../../components/use-require-login';
import { useSession } from '../../../lib/session';
import { likeShown, myLikeDrawn, useMyLike } from '../api/like-overlay';
import { useToggleLike } from '../api/like-post';
import { CountName } from './count-name';

/**
 * Filled when the current user likes the post: at once on a click (the count with it), then as the
 * server confirms; a failed like goes back to what the server holds (api/like-post.ts).
 */
export function LikeButton({ post }: { post: Post }) {
  const { user } = useSession();
  const requireLogin = useRequireLogin();
  const viewerId = user?._id ?? null;
  const toggle = useToggleLike(post._id, viewerId);
  const myLike = useMyLike(post._id);
  const { liked, cached, count } = likeShown(post, viewerId, myLike);
  // Once this card draws the settled like from the cached post alone, the overlay can go.
  useEffect(() => myLikeDrawn(post._id, cached), [post._id, cached, myLike]);

  const onClick = () => requireLogin('Please login to like a post', () => toggle(!liked));

  return (
    <Button
      type="text"
      className="post-count-button"
      aria-pressed={liked}
      icon={liked ? <HeartFilled className="like-icon-filled" aria-hidden /> : <HeartOutlined aria-hidden />}
      onClick={onClick}
    >
      <CountName action="Like" count={count} one="like" many="likes" />
    </Button>
  );
}
