import { HeartFilled, HeartOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useEffect } from 'react';
import { useRequireLogin } from '../../../components/use-require-login';
import { useSession } from '../../../lib/session';
import { LIKE, useToggleLike } from '../api/like-post';
import { toggleDrawn, type ToggleShown, useToggleShown } from '../api/toggle-overlay';
import { CountName } from './count-name';

/** The heart and the count to draw: the cached post with the viewer's own like laid over it. */
function likeShown(post: Post, viewerId: string | null, myLike: ToggleShown | undefined) {
  const cached = viewerId !== null && post.likes.includes(viewerId);
  const liked = myLike?.on ?? cached;
  const count = Math.max(0, post.likesCount + (liked === cached ? 0 : liked ? 1 : -1));
  return { liked, cached, count };
}

/**
 * Filled when the current user likes the post: at once on a click (the count with it), then as the
 * server confirms; a failed like goes back to what the server holds (api/like-post.ts).
 */
export function LikeButton({ post }: { post: Post }) {
  const { user } = useSession();
  const requireLogin = useRequireLogin();
  const viewerId = user?._id ?? null;
  const toggle = useToggleLike(post._id, viewerId);
  const myLike = useToggleShown(LIKE, post._id);
  const { liked, cached, count } = likeShown(post, viewerId, myLike);
  // Once this card draws the settled like from the cached post alone, the overlay can go.
  useEffect(() => toggleDrawn(LIKE, post._id, cached), [post._id, cached, myLike]);

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
