import { HeartFilled, HeartOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useRef } from 'react';
import { useRequireLogin } from '../../../components/use-require-login';
import { useSession } from '../../../lib/session';
import { useToggleLike } from '../api/like-post';
import { CountName } from './count-name';

/**
 * Filled when the current user's id is in the post's likes. The count is the server's: the reply
 * to the like replaces the post everywhere. A second click while a request runs is ignored.
 */
export function LikeButton({ post }: { post: Post }) {
  const { user } = useSession();
  const requireLogin = useRequireLogin();
  const toggle = useToggleLike();
  const busy = useRef(false);
  const liked = user !== null && post.likes.includes(user._id);

  const onClick = () =>
    requireLogin('Please login to like a post', () => {
      if (busy.current) return;
      busy.current = true;
      toggle.mutate(
        { postId: post._id, like: !liked },
        {
          onSettled: () => {
            busy.current = false;
          },
        },
      );
    });

  return (
    <Button
      type="text"
      className="post-count-button"
      aria-pressed={liked}
      icon={liked ? <HeartFilled className="like-icon-filled" aria-hidden /> : <HeartOutlined aria-hidden />}
      onClick={onClick}
    >
      <CountName action="Like" count={post.likesCount} one="like" many="likes" />
    </Button>
  );
}
