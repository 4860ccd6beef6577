import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { Feed } from '@techit/contract/enums';
import { Button } from 'antd';
import { useCallback, useDeferredValue } from 'react';
import { EmptyState } from '../../../components/empty-state';
import type { PageCursor } from '../../../lib/cursor-pages';
import { useSession } from '../../../lib/session';
import { useLoadMore } from '../../../lib/use-load-more';
import { useFeedPosts } from '../api/get-feed';
import { useUserPosts } from '../api/get-user-posts';
import type { PostPage } from '../api/post-keys';
import { PostCard } from './post-card';
import { PostCardSkeleton } from './post-card-skeleton';
import './posts.css';

export interface PostFeedProps {
  source: { kind: 'feed'; feed: Feed } | { kind: 'user'; userId: string };
}

/**
 * The infinitely scrolled list of post cards: a home feed, or one user's posts (the profile's
 * Posts tab). Each source is its own cached list, so changing the feed starts a fresh list.
 */
export function PostFeed({ source }: PostFeedProps) {
  return source.kind === 'feed' ? <HomeFeedPosts feed={source.feed} /> : <UserPostList userId={source.userId} />;
}

function HomeFeedPosts({ feed }: { feed: Feed }) {
  const { user } = useSession();
  // The following feed needs a viewer: it does not load until someone is logged in.
  const waitingForLogin = feed === 'following' && !user;
  const query = useFeedPosts(feed, user?._id ?? null, !waitingForLogin);
  return <PostList query={query} idle={waitingForLogin} />;
}

function UserPostList({ userId }: { userId: string }) {
  const query = useUserPosts(userId);
  return <PostList query={query} idle={false} />;
}

interface PostListProps {
  query: UseInfiniteQueryResult<InfiniteData<PostPage, PageCursor>>;
  /** Nothing will load (the following feed for a visitor): show the empty state. */
  idle: boolean;
}

function PostList({ query, idle }: PostListProps) {
  const { hasNextPage, isFetching, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  // A page of posts arrives as an urgent update, which React renders in one go: a long task on a
  // slow phone. Deferred, the cards render in the background in slices (see post-detail.tsx).
  const data = useDeferredValue(query.data);
  const catchingUp = data !== query.data;
  const loading = query.isLoading || (!data && catchingUp);
  const pageArriving = catchingUp && (data?.pages.length ?? 0) < (query.data?.pages.length ?? 0);
  const posts = data?.pages.flatMap((page) => page.posts) ?? [];

  // The next page loads when the second-to-last card comes into view.
  const sentinel = hasNextPage ? (posts[Math.max(posts.length - 2, 0)]?._id ?? null) : null;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  // Not while a page is still being rendered: its cards would move the sentinel further down.
  const sentinelRef = useLoadMore(
    sentinel,
    hasNextPage && !isFetching && !isFetchNextPageError && !catchingUp,
    loadMore,
  );

  if (idle || (!data && !loading) || (data && posts.length === 0)) {
    return <EmptyState title="No Posts to Show!" subtitle="Try Following more users or go to home." />;
  }

  return (
    <div className="post-list" role="feed" aria-busy={isFetching} aria-label="Posts">
      {posts.map((post, index) => (
        <PostCard
          key={post._id}
          post={post}
          priority={index === 0}
          ref={post._id === sentinel ? sentinelRef : undefined}
        />
      ))}
      {(loading || isFetchingNextPage || pageArriving) && (
        <>
          <PostCardSkeleton />
          {loading && <PostCardSkeleton />}
        </>
      )}
      {isFetchNextPageError && (
        <Button onClick={() => void fetchNextPage()} style={{ alignSelf: 'center' }}>
          Load more posts
        </Button>
      )}
      {data && !hasNextPage && !catchingUp && <p className="post-list-end">You're all caught up.</p>}
    </div>
  );
}
