import { DeleteOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { Link } from 'react-router-dom';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { confirm } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useDeleteComment } from '../api/delete-comment';
import { formatDate } from './post-format';
import { busy } from '../../../lib/busy';

/** Oldest first. A comment's author, the post's author and admins may delete it, after confirming. */
export function CommentList({ post }: { post: Post }) {
  const { user, isAdmin } = useSession();
  const remove = useDeleteComment(post._id);
  // As for posts and notices: a real dialog, the safe choice focused. It closes either way; a
  // failure is told by the mutation's errorToast (lib/query-client.ts).
  const confirmDelete = (commentId: string) =>
    confirm({
      title: 'Are you sure you want to delete this comment?',
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      focusable: { autoFocusButton: 'cancel' },
      onOk: () =>
        remove.mutateAsync(commentId).then(
          () => undefined,
          () => undefined,
        ),
    });

  if (post.comments.length === 0) {
    return <span className="secondary-text">No comments yet. Be the first!</span>;
  }

  return (
    <ul className="comment-list">
      {post.comments.map((comment) => {
        const canDelete =
          user !== null && (isAdmin || user._id === comment.postedBy._id || user._id === post.postedBy._id);
        return (
          <li key={comment._id} className="comment">
            <UserAvatar pic={comment.postedBy.pic} userName={comment.postedBy.userName} size={36} />
            <div className="comment-body">
              <div className="comment-head">
                <Link to={paths.profile(comment.postedBy._id)} className="comment-author">
                  {comment.postedBy.userName}
                </Link>
                <time className="secondary-text comment-date" dateTime={comment.createdAt}>
                  {formatDate(comment.createdAt)}
                </time>
                {canDelete && (
                  <Button
                    type="text"
                    size="small"
                    danger
                    style={{ marginLeft: 'auto' }}
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={`Delete comment by ${comment.postedBy.userName}`}
                    loading={busy(remove.isPending && remove.variables === comment._id)}
                    onClick={() => confirmDelete(comment._id)}
                  />
                )}
              </div>
              <p className="comment-text">{comment.text}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
