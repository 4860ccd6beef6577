import { CodeOutlined, CommentOutlined, LinkOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { isHttpUrl, linkHost } from '@techit/contract/url-rules';
import { Button } from 'antd';
import { Card } from '../../../components/surface-card';
import { Tag } from '../../../components/surface-tag';
import { type MouseEvent, type Ref, useId } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useRequireLogin } from '../../../components/use-require-login';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import { BookmarkButton } from './bookmark-button';
import { LikeButton } from './like-button';
import { PostActions } from './post-actions';
import { PostPhoto } from './post-photo';
import { ShareButton } from './share-button';
import { CountName } from './count-name';
import { RelativeTime } from '../../../components/relative-time';
import { RemovedBadge } from '../../../components/removed-content';
import { ReportButton } from '../../../components/report-button';
import { RenderedMarkdown } from '../../../components/rendered-markdown';
import { TagLinks } from '../../../components/tag-links';
import './posts.css';

interface PostCardProps {
  post: Post;
  /** The post's own page: no click-through, a level-1 heading, and a comment action. */
  expanded?: boolean;
  /** The expanded card's comment icon: take the user to the comment box. */
  onComment?: () => void;
  /** The first card of a list, likely above the fold: its picture is not lazy-loaded. */
  priority?: boolean;
  ref?: Ref<HTMLElement>;
}

const INTERACTIVE = 'a, button, input, textarea, select, label, [role="button"], [role="dialog"]';

export function PostCard({ post, expanded = false, onComment, priority = false, ref }: PostCardProps) {
  const navigate = useNavigate();
  const { user, isAdmin } = useSession();
  const requireLogin = useRequireLogin();
  const titleId = useId();
  const isAuthor = user?._id === post.postedBy._id;
  const Heading = expanded ? 'h1' : 'h2';

  // Clicking anywhere on a card opens the post, except on its own controls or while selecting text.
  const open = (event: MouseEvent<HTMLElement>) => {
    if (expanded || (event.target as Element).closest(INTERACTIVE)) return;
    if (window.getSelection()?.toString()) return;
    void navigate(paths.post(post._id));
  };

  const commentName = <CountName action="Comments" count={post.commentsCount} one="comment" many="comments" />;

  return (
    <article
      ref={ref}
      className={expanded ? 'post-card is-expanded' : 'post-card'}
      aria-labelledby={titleId}
      onClick={open}
    >
      <Card hoverable={!expanded}>
        <header className="post-card-header">
          <Link to={paths.profile(post.postedBy._id)} className="post-author">
            <UserAvatar pic={post.postedBy.pic} userName={post.postedBy.userName} size={40} />
            <span className="post-author-name">{post.postedBy.userName}</span>
          </Link>
          <RelativeTime className="post-date" dateTime={post.createdAt} editedAt={post.editedAt} />
          {post.category && <Tag color={post.category === 'Doubt' ? 'orange' : 'blue'}>{post.category}</Tag>}
          {post.removed && <RemovedBadge />}
          {(isAuthor || isAdmin) && <PostActions post={post} canEdit={isAuthor} expanded={expanded} />}
        </header>

        <Heading id={titleId} className="post-title">
          {expanded ? post.title : <Link to={paths.post(post._id)}>{post.title}</Link>}
        </Heading>
        <TagLinks tags={post.tags} />
        <RenderedMarkdown html={post.descHtml} className="post-desc" />

        {post.photo && (
          <PostPhoto
            url={post.photo}
            alt={`Picture for the post “${post.title}”`}
            expanded={expanded}
            priority={priority}
          />
        )}

        {(isHttpUrl(post.link1) || isHttpUrl(post.link2)) && (
          <div className="post-links">
            {isHttpUrl(post.link1) && (
              <Button
                size="small"
                icon={<CodeOutlined aria-hidden />}
                href={post.link1}
                target="_blank"
                rel="noopener noreferrer"
              >
                {`Code · ${linkHost(post.link1)}`}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </Button>
            )}
            {isHttpUrl(post.link2) && (
              <Button
                size="small"
                icon={<LinkOutlined aria-hidden />}
                href={post.link2}
                target="_blank"
                rel="noopener noreferrer"
              >
                {`Demo · ${linkHost(post.link2)}`}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </Button>
            )}
          </div>
        )}

        {/* The article itself: only the post's own page has it (lists carry no body). */}
        {expanded && post.bodyHtml && <RenderedMarkdown html={post.bodyHtml} variant="article" className="post-body" />}

        <footer className="post-card-footer">
          <LikeButton post={post} />
          {expanded ? (
            <Button
              type="text"
              className="post-count-button"
              icon={<CommentOutlined aria-hidden />}
              onClick={() => requireLogin('Please login to comment', () => onComment?.())}
            >
              {commentName}
            </Button>
          ) : (
            <Link to={paths.post(post._id)} className="post-count-button">
              <CommentOutlined aria-hidden /> {commentName}
            </Link>
          )}
          <span className="post-card-footer-end">
            <BookmarkButton post={post} />
            <ShareButton post={post} withText={expanded} />
            <ReportButton
              targetKind="post"
              targetId={post._id}
              authorId={post.postedBy._id}
              label={post.title}
              withText={expanded}
            />
          </span>
        </footer>
      </Card>
    </article>
  );
}
