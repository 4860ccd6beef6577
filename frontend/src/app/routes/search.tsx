import type { SearchType } from '@techit/contract/api-types';
import { useSearchParams } from 'react-router-dom';
import { type TabItem, Tabs } from '../../components/surface-tabs';
import { paths } from '../../config/paths';
import { SearchBox } from '../../features/search/components/search-box';
import { SearchHints, SearchResults } from '../../features/search/components/search-results';
import { useDocumentTitle } from '../../lib/use-document-title';

const TABS: TabItem<SearchType>[] = [
  { key: 'posts', label: 'Posts' },
  { key: 'notices', label: 'Notices' },
  { key: 'users', label: 'Users' },
  { key: 'tags', label: 'Tags' },
];

function typeOf(value: string | null): SearchType {
  return TABS.find((tab) => tab.key === value)?.key ?? 'posts';
}

/** /search?q=…&type=posts|notices|users|tags — the box, a tab per kind of result, and its results. */
export default function SearchPage() {
  const [search, setSearch] = useSearchParams();
  const q = search.get('q')?.trim() ?? '';
  const type = typeOf(search.get('type'));
  useDocumentTitle(q ? `${q} – Search` : 'Search');

  // Another tab of the same query replaces this entry: Back leaves the search, not the tab.
  const choose = (next: SearchType) =>
    setSearch(new URL(paths.search(q, next), window.location.origin).searchParams, {
      replace: true,
      preventScrollReset: true,
    });

  return (
    <div className="search-page">
      <h1 className="search-page-heading">{q ? `Results for “${q}”` : 'Search'}</h1>
      {/* A new query (from the left bar too) starts the box afresh with it. */}
      <SearchBox key={q} variant="page" initialQuery={q} type={type} autoFocus={!q} />
      {q ? (
        <Tabs items={TABS} activeKey={type} onChange={choose}>
          <SearchResults key={`${type} ${q}`} q={q} type={type} />
        </Tabs>
      ) : (
        <div className="search-message">
          <h2>Find posts, notices, people and tags</h2>
          <p style={{ margin: 0 }}>Type what you are looking for. You can also write:</p>
          <SearchHints />
        </div>
      )}
    </div>
  );
}
