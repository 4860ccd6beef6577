import { CommentOutlined, HeartOutlined } from '@ant-design/icons';
import type {
  NoticeSearchResult,
  PostSearchResult,
  SearchType,
  TagSearchResult,
  UserSearchResult,
} from '@techit/contract/api-types';
import { Button } from 'antd';
import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router-dom';
import { RelativeTime } from '../../../components/relative-time';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { type SearchResultOf, useSearchResults } from '../api/get-search-results';
import { SearchSnippet } from './search-snippet';
import './search.css';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What the query language offers: the empty page's and the no-results page's hints. */
export function SearchHints() {
  return (
    <ul className="search-hints">
      <li>
        <code>kubernetes guide</code>: posts with every word
      </li>
      <li>
        <code>"exact phrase"</code>: those words together, in that order
      </li>
      <li>
        <code>-word</code>: leave out what has this word
      </li>
      <li>
        <code>tag:react</code>: only posts with this tag
      </li>
      <li>
        <code>@userName</code>: only what this person wrote
      </li>
    </ul>
  );
}

function PostResult({ result }: { result: PostSearchResult }) {
  const titleId = useId();
  return (
    <article className="search-result" aria-labelledby={titleId}>
      <h2 id={titleId} className="search-result-title">
        <Link to={paths.post(result._id)}>{result.title}</Link>
      </h2>
      <SearchSnippet html={result.snippet} />
      <div className="search-result-meta">
        <Link to={paths.profile(result.postedBy._id)} className="search-result-author">
          <span aria-hidden style={{ display: 'contents' }}>
            <UserAvatar pic={result.postedBy.pic} userName={result.postedBy.userName} size={22} />
          </span>
          {result.postedBy.userName}
        </Link>
        <RelativeTime dateTime={result.createdAt} />
        {result.tags.length > 0 && (
          <ul className="search-result-tags" aria-label="Tags">
            {result.tags.map((tag) => (
              <li key={tag}>
                <Link to={paths.tag(tag)}>#{tag}</Link>
              </li>
            ))}
          </ul>
        )}
        <span className="search-result-counts">
          <span>
            <HeartOutlined aria-hidden /> {plural(result.likesCount, 'like', 'likes')}
          </span>
          <span>
            <CommentOutlined aria-hidden /> {plural(result.commentsCount, 'comment', 'comments')}
          </span>
        </span>
      </div>
    </article>
  );
}

function NoticeResult({ result }: { result: NoticeSearchResult }) {
  return (
    <article className="search-result" aria-label={`Notice by ${result.postedBy.userName}`}>
      <SearchSnippet html={result.snippet} />
      <div className="search-result-meta">
        {/* A notice has no page of its own: its author's notices are where it lives. */}
        <Link to={paths.profileNotices(result.postedBy._id)} className="search-result-author">
          <span aria-hidden style={{ display: 'contents' }}>
            <UserAvatar pic={result.postedBy.pic} userName={result.postedBy.userName} size={22} />
          </span>
          {result.postedBy.userName}
        </Link>
        <RelativeTime dateTime={result.createdAt} />
      </div>
    </article>
  );
}

function UserResult({ result }: { result: UserSearchResult }) {
  const titleId = useId();
  return (
    <article className="search-result search-result-person" aria-labelledby={titleId}>
      <span aria-hidden>
        <UserAvatar pic={result.pic} userName={result.userName} size={44} />
      </span>
      <div className="search-result-person-text">
        <h2 id={titleId} className="search-result-title">
          <Link to={paths.profile(result._id)}>{result.userName}</Link>
        </h2>
        {result.position && <p className="search-result-position">{result.position}</p>}
        {result.bio && <p className="search-result-bio">{result.bio}</p>}
      </div>
    </article>
  );
}

function TagResult({ result }: { result: TagSearchResult }) {
  const titleId = useId();
  return (
    <article className="search-result" aria-labelledby={titleId}>
      <h2 id={titleId} className="search-result-title">
        <Link to={paths.tag(result.name)}>#{result.name}</Link>
      </h2>
      <div className="search-result-meta">
        <span>{plural(result.postsCount, 'post', 'posts')}</span>
        <span>{plural(result.followersCount, 'follower', 'followers')}</span>
      </div>
    </article>
  );
}

function ResultItem<T extends SearchType>({ type, result }: { type: T; result: SearchResultOf[T] }) {
  switch (type) {
    case 'posts':
      return <PostResult result={result as PostSearchResult} />;
    case 'notices':
      return <NoticeResult result={result as NoticeSearchResult} />;
    case 'users':
      return <UserResult result={result as UserSearchResult} />;
    case 'tags':
      return <TagResult result={result as TagSearchResult} />;
  }
}

const NOUNS: Record<SearchType, string> = { posts: 'posts', notices: 'notices', users: 'people', tags: 'tags' };

/**
 * One tab of the results page: the results of `type` for `q`, best first, a page at a time
 * ("Load more"), "Showing results for …" when the server forgave a typo, and what to try when
 * nothing (or nothing it could read) was found.
 */
export function SearchResults({ q, type }: { q: string; type: SearchType }) {
  const { user } = useSession();
  const query = useSearchResults(q, type, user?._id ?? null);
  const list = useRef<HTMLOListElement>(null);
  // After "Load more", focus goes to the first new result (the button may be gone with the last page).
  const focusFrom = useRef<number | null>(null);
  const pages = query.data?.pages ?? [];
  const results = pages.flatMap((page) => page.reply.results);
  const corrected = pages[0]?.reply.correctedQuery;

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || results.length <= from) return;
    focusFrom.current = null;
    list.current?.querySelectorAll<HTMLElement>(':scope > li')[from]?.querySelector<HTMLElement>('a')?.focus();
  }, [results.length]);

  if (query.isPending) {
    return (
      <p className="search-message" role="status" aria-busy>
        Searching…
      </p>
    );
  }
  if (query.isError && results.length === 0) {
    const refused = query.error instanceof ApiError && query.error.status === 400;
    return (
      <div className="search-message" role="alert">
        <h2>{refused ? query.error.message : 'The search could not be finished'}</h2>
        {refused ? (
          <SearchHints />
        ) : (
          <Button onClick={() => void query.refetch()} loading={query.isFetching}>
            Try again
          </Button>
        )}
      </div>
    );
  }
  if (results.length === 0) {
    return (
      <div className="search-message">
        <h2>
          No {NOUNS[type]} found for “{q}”
        </h2>
        <p style={{ margin: 0 }}>Check the spelling, use fewer words, or try:</p>
        <SearchHints />
      </div>
    );
  }

  return (
    <>
      {/* Said to screen readers as results arrive: focus stays in the box that searched. */}
      <p className="visually-hidden" role="status">
        {`${plural(results.length, 'result', 'results')} shown${query.hasNextPage ? ', more below' : ''}.`}
      </p>
      {corrected && (
        <p className="search-corrected" role="status">
          Nothing matched “{q}”. Showing results for <strong>{corrected}</strong>.
        </p>
      )}
      <ol className="search-results" ref={list} aria-label={`Results: ${NOUNS[type]}`} aria-busy={query.isFetching}>
        {results.map((result) => (
          <li key={'_id' in result ? result._id : result.name}>
            <ResultItem type={type} result={result} />
          </li>
        ))}
      </ol>
      {(query.hasNextPage || query.isFetchNextPageError) && (
        <div className="search-load-more">
          <Button
            loading={query.isFetchingNextPage}
            onClick={() => {
              focusFrom.current = results.length;
              void query.fetchNextPage();
            }}
          >
            Load more
          </Button>
        </div>
      )}
    </>
  );
}
