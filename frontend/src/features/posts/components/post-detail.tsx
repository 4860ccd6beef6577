import { Card } from '../../../components/surface-card';
import { useCallback, useDeferredValue, useEffect, useId } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { isRemovedPlaceholder } from '../../../components/removed-content';
import { ButtonLink } from '../../../components/button-link';
import { EmptyState } from '../../../components/empty-state';
import { usePost } from '../api/get-post';
import { CommentBox } from './comment-box';
import { CommentList } from './comment-list';
import { PostCard } from './post-card';
import { PostCardSkeleton } from './post-card-skeleton';
import './posts.css';

/** The expanded card, the comment box and the comments; or the not-found state. */
export function PostDetail({ postId }: { postId: string }) {
  const { data, error } = usePost(postId);
  // The reply arrives as an urgent update, which React renders in one go: a long task on a slow
  // phone. Deferred, the post renders in the background in slices that leave the page responsive
  // (the skeleton meanwhile). Data already cached when the page opens shows at once.
  const post = useDeferredValue(data);
  const commentBoxId = useId();
  const headingId = useId();
  // ?thread=<commentId>: one subthread ("Continue this thread"), not the whole conversation.
  const [search] = useSearchParams();
  const threadId = search.get('thread');

  const navigate = useNavigate();
  const location = useLocation();
  const focusCommentBox = (location.state as { focusCommentBox?: boolean } | null)?.focusCommentBox === true;

  const goToCommentBox = useCallback(() => {
    const box = document.getElementById(commentBoxId);
    box?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    box?.focus({ preventScroll: true });
  }, [commentBoxId]);
  // The subthread view has no box for a new top-level comment (it would not show there): the
  // post's Comment button leads back to the whole conversation, its box in view.
  const onComment = useCallback(() => {
    if (threadId === null) goToCommentBox();
    else void navigate(paths.post(postId), { state: { focusCommentBox: true } });
  }, [threadId, goToCommentBox, navigate, postId]);
  const shown = post !== undefined;
  useEffect(() => {
    if (shown && threadId === null && focusCommentBox) goToCommentBox();
  }, [shown, threadId, focusCommentBox, goToCommentBox]);

  if (!post) {
    if (error)
      return (
        <EmptyState
          title="This Post doesn't exist!"
          subtitle="Try searching for another Post or go to Home."
          searchLink
        />
      );
    return (
      <div className="post-detail" aria-busy="true">
        <PostCardSkeleton />
      </div>
    );
  }

  // Removed by the moderators: anyone but its author and the moderators gets an empty placeholder.
  if (isRemovedPlaceholder(post))
    return (
      <EmptyState
        title="This post was removed by the moderators"
        subtitle="The moderation log says why."
        action={
          <div className="empty-state-actions">
            <ButtonLink to={paths.home} type="primary">
              Go to Home
            </ButtonLink>
            <ButtonLink to={paths.moderationLog}>Moderation log</ButtonLink>
          </div>
        }
      />
    );

  return (
    <div className="post-detail">
      <PostCard post={post} expanded onComment={onComment} />
      <Card>
        <section aria-labelledby={headingId}>
          <h2 id={headingId} className="comments-heading">
            Comments ({post.commentsCount})
          </h2>
          {/* A removed post takes no new comments (the API answers 409). */}
          {threadId === null && !post.removed && <CommentBox postId={post._id} inputId={commentBoxId} />}
          <CommentList post={post} threadId={threadId} />
        </section>
      </Card>
    </div>
  );
}
