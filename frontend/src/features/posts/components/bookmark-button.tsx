import { BookOutlined, BookFilled } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useEffect } from 'react';
import { useRequireLogin } from '../../../components/use-require-login';
import { useSession } from '../../../lib/session';
import { BOOKMARK, useToggleBookmark } from '../api/bookmark-post';
import { toggleDrawn, useToggleShown } from '../api/toggle-overlay';

/**
 * Filled when the viewer has the post in their bookmarks: at once on a click, then as the server
 * confirms; a failure goes back to what the server holds (api/bookmark-post.ts). An icon button,
 * named by what it does to this post and pressed while the post is saved.
 */
export function BookmarkButton({ post }: { post: Post }) {
  const { user } = useSession();
  const requireLogin = useRequireLogin();
  const viewerId = user?._id ?? null;
  const toggle = useToggleBookmark(post._id, viewerId);
  const mine = useToggleShown(BOOKMARK, post._id);
  const cached = viewerId !== null && post.bookmarked;
  const bookmarked = mine?.on ?? cached;
  // Once this card draws the settled bookmark from the cached post alone, the overlay can go.
  useEffect(() => toggleDrawn(BOOKMARK, post._id, cached), [post._id, cached, mine]);

  return (
    <Button
      type="text"
      className="post-count-button post-icon-button bookmark-button"
      aria-pressed={bookmarked}
      aria-label={`Bookmark: ${post.title}`}
      title={bookmarked ? 'Remove from your bookmarks' : 'Save to your bookmarks'}
      icon={bookmarked ? <BookFilled className="bookmark-icon-filled" aria-hidden /> : <BookOutlined aria-hidden />}
      onClick={() => requireLogin('Please login to bookmark a post', () => toggle(!bookmarked))}
    />
  );
}
