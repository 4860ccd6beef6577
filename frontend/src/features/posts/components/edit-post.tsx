import type { Post } from '@techit/contract/api-types';
import { Alert, Result } from 'antd';
import { ButtonLink } from '../../../components/button-link';
import { EmptyState } from '../../../components/empty-state';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { usePost } from '../api/get-post';
import { EditPostForm } from './edit-post-form';
import { PostCardSkeleton } from './post-card-skeleton';
import './posts.css';

interface EditPostProps {
  postId: string;
  /** The post handed over by the card's Edit action (navigation state), when there is one. */
  statePost?: Post | null;
}

/**
 * Prefilled from the card's navigation state; opened directly (or that state lost), the post is
 * fetched. Only its author gets the form; anyone else is told why not.
 */
export function EditPost({ postId, statePost }: EditPostProps) {
  const { user } = useSession();
  const handedOver = statePost?._id === postId ? statePost : undefined;
  const query = usePost(postId, { enabled: !handedOver, showsError: true });
  const post = handedOver ?? query.data;

  let content;
  if (!post) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return (
        <EmptyState
          title="This Post doesn't exist!"
          subtitle="Try searching for another Post or go to Home."
          searchLink
        />
      );
    }
    content = query.error ? (
      <Alert type="error" showIcon role="alert" title="Oops, there was an issue while loading the post!" />
    ) : (
      <PostCardSkeleton />
    );
  } else if (user?._id !== post.postedBy._id) {
    content = (
      <Result
        status="warning"
        title="You can't edit this post"
        subTitle={user ? 'Only the author of a post can edit it.' : 'Log in as the author of this post to edit it.'}
        extra={<ButtonLink to={paths.post(post._id)}>Back to the post</ButtonLink>}
      />
    );
  } else {
    content = <EditPostForm key={post._id} post={post} />;
  }

  return (
    <div className="post-form-page">
      <h1 className="post-form-heading">Edit post</h1>
      {content}
    </div>
  );
}
