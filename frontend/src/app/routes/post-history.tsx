import { useParams } from 'react-router-dom';
import { PostHistory } from '../../features/posts/components/post-history';
import { useDocumentTitle } from '../../lib/use-document-title';

/** /posts/:postid/history — the post's edits, for its author and admins. */
export default function PostHistoryPage() {
  const postId = useParams().postid ?? '';
  useDocumentTitle('Edit history');
  return <PostHistory key={postId} postId={postId} />;
}
