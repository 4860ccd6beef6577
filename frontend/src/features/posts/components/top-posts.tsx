import { CommentOutlined, HeartOutlined } from '@ant-design/icons';
import { UI } from '@techit/contract/limits';
import type { TopPostWindow } from '@techit/contract/enums';
import { Button, Skeleton } from 'antd';
import { useDeferredValue, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '../../../components/surface-card';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { useTopPosts } from '../api/get-top-posts';
import { countLabel } from './post-format';
import './posts.css';

/**
 * The windows the panel offers. All time is the request without a window: the seed's (and the
 * spec's) top posts, which the page shows first and the boot script has already asked for.
 */
const WINDOWS: readonly { window: TopPostWindow | null; label: string }[] = [
  { window: null, label: 'All time' },
  { window: 'week', label: 'This week' },
];

/** The side panel's ranking: each entry links to its post and to its author. */
export function TopPosts() {
  const headingId = useId();
  const [window, setWindow] = useState<TopPostWindow | null>(null);
  const query = useTopPosts(window);
  // Rendered in the background, in slices, when the reply arrives (see post-detail.tsx).
  const data = useDeferredValue(query.data);
  const isLoading = query.isLoading || (!data && data !== query.data);

  return (
    <section aria-labelledby={headingId}>
      <Card
        size="small"
        title={
          <h2 id={headingId} style={{ margin: 0, fontSize: 16 }}>
            Top Posts
          </h2>
        }
        extra={
          <div className="top-posts-windows" role="group" aria-label="Top posts of">
            {WINDOWS.map((choice) => (
              <Button
                key={choice.label}
                size="small"
                type={choice.window === window ? 'primary' : 'text'}
                aria-pressed={choice.window === window}
                onClick={() => setWindow(choice.window)}
              >
                {choice.label}
              </Button>
            ))}
          </div>
        }
      >
        {isLoading ? (
          <div aria-busy="true" aria-label="Loading top posts">
            {Array.from({ length: UI.topPostsSkeletonRows }, (_, index) => (
              <Skeleton key={index} active avatar={{ size: 'small' }} title={false} paragraph={{ rows: 2 }} />
            ))}
          </div>
        ) : data && data.length > 0 ? (
          <ol className="plain-list top-posts-list">
            {data.map((post) => (
              <li key={post._id} className="top-post">
                <Link to={paths.post(post._id)} className="top-post-title">
                  {post.title}
                </Link>
                <div className="top-post-meta">
                  <Link to={paths.profile(post.postedBy._id)} className="top-post-author">
                    <UserAvatar pic={post.postedBy.pic} userName={post.postedBy.userName} size={24} />
                    <span>{post.postedBy.userName}</span>
                  </Link>
                  <span className="top-post-stats">
                    <span title={countLabel(post.likesCount, 'like', 'likes')}>
                      <HeartOutlined aria-hidden /> {post.likesCount}
                      <span className="visually-hidden"> {post.likesCount === 1 ? 'like' : 'likes'}</span>
                    </span>
                    <span title={countLabel(post.commentsCount, 'comment', 'comments')}>
                      <CommentOutlined aria-hidden /> {post.commentsCount}
                      <span className="visually-hidden"> {post.commentsCount === 1 ? 'comment' : 'comments'}</span>
                    </span>
                  </span>
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <span style={{ color: 'var(--text-secondary)' }}>
            {window === 'week' ? 'No posts this week yet.' : 'No posts yet.'}
          </span>
        )}
      </Card>
    </section>
  );
}
