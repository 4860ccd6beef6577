import { DeleteOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { Link } from 'react-router-dom';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import { useDeleteComment } from '../api/delete-comment';
import { RelativeTime } from '../../../components/relative-time';
import { busy } from '../../../lib/busy';

/** Oldest first. A comment's author, the post's author and admins may delete it. */
export function CommentList({ post }: { post: Post }) {
  const { user, isAdmin } = useSession();
  const remove = useDeleteComment(post._id);

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
                {/* Comments cannot be edited yet: no updatedAt, so never "edited". */}
                <RelativeTime className="secondary-text comment-date" dateTime={comment.createdAt} />
                {canDelete && (
                  <Button
                    type="text"
                    size="small"
                    danger
                    style={{ marginLeft: 'auto' }}
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={`Delete comment by ${comment.postedBy.userName}`}
                    loading={busy(remove.isPending && remove.variables === comment._id)}
                    onClick={() => remove.mutate(comment._id)}
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
