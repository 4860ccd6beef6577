import { Skeleton, Spin } from 'antd';
import { useCallback } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { useLoadMore } from '../../../lib/use-load-more';
import { useAllNotices } from '../api/get-all-notices';
import { useUserNotices } from '../api/get-user-notices';
import { NoticeCard } from './notice-card';
import './notices.css';

export type NoticeSource = { kind: 'all' } | { kind: 'user'; userId: string };

/** All notices, or one user's: paged by cursor, loading the next page as the reader scrolls. */
export function NoticeList({ source }: { source: NoticeSource }) {
  return source.kind === 'all' ? <AllNotices /> : <UserNotices userId={source.userId} />;
}

function AllNotices() {
  const query = useAllNotices();
  return <NoticePages query={query} emptyHint="Notices from the community show up here. Go to Home to see posts." />;
}

function UserNotices({ userId }: { userId: string }) {
  const query = useUserNotices(userId);
  return <NoticePages query={query} emptyHint="This user has not posted any notices yet. Go to Home to see posts." />;
}

type NoticeQuery = ReturnType<typeof useAllNotices>;

function NoticePages({ query, emptyHint }: { query: NoticeQuery; emptyHint: string }) {
  const { data, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const notices = data?.pages.flatMap((page) => page.notices) ?? [];
  // The next page loads when the second-to-last notice comes into view.
  const watched = Math.max(notices.length - 2, 0);
  const sentinel = hasNextPage ? (notices[watched]?._id ?? null) : null;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const watch = useLoadMore(sentinel, hasNextPage && !isFetchingNextPage, loadMore);

  if (isPending) {
    return (
      <div role="status" aria-busy="true" aria-label="Loading notices">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} avatar active paragraph={{ rows: 2 }} />
        ))}
      </div>
    );
  }
  if (notices.length === 0) {
    return isError ? null : <EmptyState title="No Notices to Show!" subtitle={emptyHint} />;
  }
  return (
    <>
      <ul className="plain-list notice-list" aria-label="Notices">
        {notices.map((notice, index) => (
          <li key={notice._id} ref={index === watched ? watch : undefined}>
            <NoticeCard notice={notice} />
          </li>
        ))}
      </ul>
      {isFetchingNextPage && (
        <div className="notice-list-more" role="status" aria-label="Loading more notices">
          <Spin />
        </div>
      )}
    </>
  );
}
