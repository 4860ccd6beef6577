import { normaliseTag, TAG_PATTERN } from '@techit/contract/tag-rules';
import { Navigate, useParams } from 'react-router-dom';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { PostFeed } from '../../features/posts/components/post-feed';
import { TagHeader } from '../../features/tags/components/tag-header';
import { useDocumentTitle } from '../../lib/use-document-title';

const PAGE = { maxWidth: 800, margin: '0 auto' } as const;

/** /t/:name — the tag's name, counts and Follow / Mute, then its posts, newest first. */
export default function TagPage() {
  const typed = useParams().name ?? '';
  const name = normaliseTag(typed);
  const valid = TAG_PATTERN.test(name);
  useDocumentTitle(valid ? `#${name}` : 'Tag not found');

  if (!valid) {
    return <EmptyState title="This tag doesn't exist!" subtitle="A tag is letters, digits and dashes. Go to Home." />;
  }
  // One address per tag: /t/JavaScript is /t/javascript.
  if (name !== typed) return <Navigate to={paths.tag(name)} replace />;
  return (
    <div style={PAGE}>
      <TagHeader key={name} name={name} />
      <PostFeed source={{ kind: 'tag', tag: name }} />
    </div>
  );
}
