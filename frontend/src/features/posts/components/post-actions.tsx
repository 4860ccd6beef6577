import { DeleteOutlined, EditOutlined, HistoryOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useNavigate } from 'react-router-dom';
import { ButtonLink } from '../../../components/button-link';
import { paths } from '../../../config/paths';
import { useDeletePost } from '../api/delete-post';
import { confirm } from '../../../lib/notify';
import { forgetPost } from '../api/post-cache';

interface PostActionsProps {
  post: Post;
  /** Only the author edits (the server refuses anyone else, admins included). */
  canEdit: boolean;
  /** On the post's own page: after deleting, go home. */
  expanded: boolean;
}

/** Edit and Delete, for the author (and Delete for an admin); on the post's page, its edit history once edited. */
export function PostActions({ post, canEdit, expanded }: PostActionsProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useDeletePost();

  const confirmDelete = () => {
    confirm({
      title: 'Are you sure you want to delete this post?',
      content: 'Its likes and comments go with it.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: async () => {
        try {
          await remove.mutateAsync(post._id);
        } catch {
          return; // told by the mutation's errorToast (lib/query-client.ts)
        }
        if (expanded) await navigate(paths.home, { replace: true });
        forgetPost(queryClient, post._id);
      },
    });
  };

  return (
    <span className="post-card-actions">
      {expanded && post.editedAt && (
        <ButtonLink
          type="text"
          size="small"
          icon={<HistoryOutlined aria-hidden />}
          aria-label={`Edit history of the post: ${post.title}`}
          to={paths.postHistory(post._id)}
        >
          History
        </ButtonLink>
      )}
      {canEdit && (
        <Button
          type="text"
          size="small"
          icon={<EditOutlined aria-hidden />}
          aria-label={`Edit post: ${post.title}`}
          onClick={() => void navigate(paths.editPost(post._id), { state: { post } })}
        >
          Edit
        </Button>
      )}
      <Button
        type="text"
        size="small"
        danger
        icon={<DeleteOutlined aria-hidden />}
        aria-label={`Delete post: ${post.title}`}
        onClick={confirmDelete}
      >
        Delete
      </Button>
    </span>
  );
}
