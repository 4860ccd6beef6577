import { CommentOutlined, HeartOutlined } from '@ant-design/icons';
import { UI } from '@techit/contract/limits';
import { Skeleton } from 'antd';
import { useDeferredValue, useId } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '../../../components/surface-card';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { useTopPosts } from '../api/get-top-posts';
import { countLabel } from './post-format';
import './posts.css';

/** The side panel's ranking: each entry links to its post and to its author. */
export function TopPosts() {
  const headingId = useId();
  const query = useTopPosts();
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
          <span style={{ color: 'var(--text-secondary)' }}>No posts yet.</span>
        )}
      </Card>
    </section>
  );
}
