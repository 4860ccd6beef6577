import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { Feed } from '@techit/contract/enums';
import { Button } from 'antd';
import { useCallback, useDeferredValue } from 'react';
import { ButtonLink } from '../../../components/button-link';
import { EmptyState } from '../../../components/empty-state';
import { paths } from '../../../config/paths';
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
  if (waitingForLogin) return <FollowingNeedsLogin />;
  return <PostList query={query} />;
}

/** A visitor's following feed: nothing to follow yet, so an invitation rather than an empty list. */
function FollowingNeedsLogin() {
  return (
    <EmptyState
      title="Log in to see your Following feed"
      subtitle="It shows the posts of the people you follow. Log in, or create an account, to follow people."
      action={
        <div style={{ display: 'flex', gap: 8, justifyContent: 'center', flexWrap: 'wrap' }}>
          <ButtonLink to={paths.login} type="primary">
            Log in
          </ButtonLink>
          <ButtonLink to={paths.signup}>Sign up</ButtonLink>
        </div>
      }
    />
  );
}

function UserPostList({ userId }: { userId: string }) {
  const query = useUserPosts(userId);
  return <PostList query={query} />;
}

interface PostListProps {
  query: UseInfiniteQueryResult<InfiniteData<PostPage, PageCursor>>;
}

function PostList({ query }: PostListProps) {
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

  if ((!data && !loading) || (data && posts.length === 0)) {
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
