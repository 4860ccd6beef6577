import { useParams } from 'react-router-dom';
import { usePost } from '../../features/posts/api/get-post';
import { PostDetail } from '../../features/posts/components/post-detail';
import { useDocumentTitle } from '../../lib/use-document-title';

/** /posts/:postid — one post with its comments. */
export default function PostDetailPage() {
  const postId = useParams().postid ?? '';
  const { data, error } = usePost(postId);
  useDocumentTitle(data?.title ?? (error ? 'Post not found' : 'Post'));
  return <PostDetail key={postId} postId={postId} />;
}
