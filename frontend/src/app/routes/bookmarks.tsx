import { useSearchParams } from 'react-router-dom';
import { paths } from '../../config/paths';
import { BookmarkFilters } from '../../features/bookmarks/components/bookmark-filters';
import { PostFeed } from '../../features/posts/components/post-feed';
import { useDocumentTitle } from '../../lib/use-document-title';

const PAGE = { maxWidth: 800, margin: '0 auto' } as const;

/** /bookmarks?q=…&tag=… — the reader's saved posts, newest saved first, searched and filtered by tag. */
export default function BookmarksPage() {
  const [search, setSearch] = useSearchParams();
  const q = search.get('q')?.trim() ?? '';
  const tag = search.get('tag')?.trim() ?? '';
  useDocumentTitle(q || tag ? 'Search – Bookmarks' : 'Bookmarks');

  const change = (next: { q: string; tag: string }) =>
    setSearch(new URL(paths.bookmarks(next.q, next.tag), window.location.origin).searchParams, {
      preventScrollReset: true,
    });

  return (
    <div style={PAGE}>
      <h1 className="bookmarks-heading">Bookmarks</h1>
      <BookmarkFilters q={q} tag={tag} onChange={change} />
      <PostFeed source={{ kind: 'bookmarks', q, tag }} />
    </div>
  );
}
