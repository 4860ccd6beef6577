import type { Post } from '@techit/contract/api-types';
import { useLocation, useParams } from 'react-router-dom';
import { EditPost } from '../../features/posts/components/edit-post';
import { useDocumentTitle } from '../../lib/use-document-title';

/** /editpost/:postid — prefilled from the post the card's Edit action passed along. */
export default function EditPostPage() {
  const postId = useParams().postid ?? '';
  const state = useLocation().state as { post?: Post } | null;
  useDocumentTitle('Edit post');
  return <EditPost key={postId} postId={postId} statePost={state?.post ?? null} />;
}
