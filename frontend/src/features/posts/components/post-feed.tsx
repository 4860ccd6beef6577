import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { HomeFeed } from '@techit/contract/enums';
import { Button } from 'antd';
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useRef } from 'react';
import { ButtonLink } from '../../../components/button-link';
import { EmptyState } from '../../../components/empty-state';
import { MAIN_ID } from '../../../components/skip-link';
import { paths } from '../../../config/paths';
import type { PageCursor } from '../../../lib/cursor-pages';
import { useSession } from '../../../lib/session';
import { useLoadMore } from '../../../lib/use-load-more';
import { listPicturePost } from '@techit/contract/list-picture';
import { BOOKMARK } from '../api/bookmark-post';
import { useBookmarks } from '../api/get-bookmarks';
import { useFeedPosts, useTagPosts } from '../api/get-feed';
import { useUserPosts } from '../api/get-user-posts';
import type { PostListSource, PostPage } from '../api/post-keys';
import { toggleDrawn, useToggleStates } from '../api/toggle-overlay';
import { PostCard } from './post-card';
import { PostCardSkeleton } from './post-card-skeleton';
import './posts.css';

export interface PostFeedProps {
  source: PostListSource;
}

/**
 * The infinitely scrolled list of post cards: a home feed, one tag's posts (the tag page), or one
 * user's posts (the profile's Posts tab). Each source is its own cached list, so changing the feed
 * starts a fresh list.
 */
export function PostFeed({ source }: PostFeedProps) {
  switch (source.kind) {
    case 'feed':
      return <HomeFeedPosts feed={source.feed} />;
    case 'tag':
      return <TagPostList tag={source.tag} />;
    case 'user':
      return <UserPostList userId={source.userId} />;
    case 'bookmarks':
      return <BookmarkPostList q={source.q} tag={source.tag} />;
  }
}

/** The feeds made of what the viewer follows: nothing to show a visitor. */
const INVITATIONS: Partial<Record<HomeFeed, { title: string; subtitle: string }>> = {
  following: {
    title: 'Log in to see your Following feed',
    subtitle: 'It shows the posts of the people you follow. Log in, or create an account, to follow people.',
  },
  tags: {
    title: 'Log in to see the posts of your tags',
    subtitle: 'It shows the posts of the tags you follow. Log in, or create an account, to follow tags.',
  },
};

/** An empty "Your tags": most likely no tag is followed yet, so say how to follow one. */
const NO_TAG_POSTS = {
  title: 'No posts from your tags yet',
  subtitle:
    'Follow tags to fill this feed: open a tag on any post and press Follow. Posts with the tags you follow show up here.',
};

function HomeFeedPosts({ feed }: { feed: HomeFeed }) {
  const { user } = useSession();
  // The following and "Your tags" feeds need a viewer: they do not load until someone is logged in.
  const invitation = user ? undefined : INVITATIONS[feed];
  const query = useFeedPosts(feed, user?._id ?? null, !invitation);
  if (invitation) return <NeedsLogin {...invitation} />;
  return <PostList query={query} empty={feed === 'tags' ? NO_TAG_POSTS : undefined} />;
}

/** A visitor's following or "Your tags" feed: nothing followed yet, so an invitation rather than an empty list. */
function NeedsLogin({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <EmptyState
      title={title}
      subtitle={subtitle}
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

function TagPostList({ tag }: { tag: string }) {
  const query = useTagPosts(tag);
  return (
    <PostList
      query={query}
      empty={{ title: 'No posts with this tag yet', subtitle: 'Be the first: add the tag to a post you write.' }}
    />
  );
}

function BookmarkPostList({ q, tag }: { q: string; tag: string }) {
  const { user } = useSession();
  const query = useBookmarks(q, tag, user?._id ?? null);
  const filtered = q !== '' || tag !== '';
  return (
    <PostList
      query={query}
      onlyBookmarked
      label="Bookmarked posts"
      empty={
        filtered
          ? {
              title: 'No bookmarks match',
              subtitle: 'Try other words or another tag, or clear the search to see all your bookmarks.',
            }
          : {
              title: 'No bookmarks yet',
              subtitle: 'Press the bookmark icon on any post to save it for later: it shows up here.',
            }
      }
    />
  );
}

interface PostListProps {
  query: UseInfiniteQueryResult<InfiniteData<PostPage, PageCursor>>;
  /** What an empty list says; the spec's words by default. */
  empty?: { title: string; subtitle: string };
  /** The Bookmarks page: a card goes at once when its bookmark is taken back (the overlay's state). */
  onlyBookmarked?: boolean;
  /** The feed's accessible name. */
  label?: string;
}

function PostList({ query, empty, onlyBookmarked = false, label = 'Posts' }: PostListProps) {
  const { hasNextPage, isFetching, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  // A page of posts arrives as an urgent update, which React renders in one go: a long task on a
  // slow phone. Deferred, the cards render in the background in slices (see post-detail.tsx).
  const data = useDeferredValue(query.data);
  const catchingUp = data !== query.data;
  const loading = query.isLoading || (!data && catchingUp);
  const pageArriving = catchingUp && (data?.pages.length ?? 0) < (query.data?.pages.length ?? 0);
  const loaded = data?.pages.flatMap((page) => page.posts) ?? [];
  const bookmarks = useToggleStates(BOOKMARK);
  const posts = onlyBookmarked ? loaded.filter((post) => bookmarks.get(post._id)?.on ?? post.bookmarked) : loaded;
  // A card taken out is not there to tell the overlay it drew the settled state: the list does.
  useEffect(() => {
    if (!onlyBookmarked) return;
    for (const post of loaded) if (!posts.includes(post)) toggleDrawn(BOOKMARK, post._id, post.bookmarked);
  });

  // A card taken out had the focus (its bookmark button was pressed, perhaps from the keyboard):
  // the focus goes to the card that took its place, else to the page, never lost to the body.
  const listRef = useRef<HTMLDivElement>(null);
  const shownBefore = useRef<string[]>([]);
  useLayoutEffect(() => {
    const before = shownBefore.current;
    const now = posts.map((post) => post._id);
    shownBefore.current = now;
    if (!onlyBookmarked || (document.activeElement && document.activeElement !== document.body)) return;
    const gone = before.findIndex((id) => !now.includes(id));
    if (gone < 0) return;
    const cards = listRef.current?.querySelectorAll('article') ?? [];
    const next = cards[Math.min(gone, cards.length - 1)]?.querySelector<HTMLElement>('.bookmark-button');
    (next ?? document.getElementById(MAIN_ID))?.focus();
  });

  // The next page loads when the second-to-last card comes into view.
  const sentinel = hasNextPage ? (posts[Math.max(posts.length - 2, 0)]?._id ?? null) : null;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  // Not while a page is still being rendered: its cards would move the sentinel further down.
  const sentinelRef = useLoadMore(
    sentinel,
    hasNextPage && !isFetching && !isFetchNextPageError && !catchingUp,
    loadMore,
  );

  const pictured = listPicturePost(posts);

  if ((!data && !loading) || (data && posts.length === 0)) {
    return empty ? (
      <EmptyState {...empty} />
    ) : (
      <EmptyState title="No Posts to Show!" subtitle="Try Following more users or go to home." />
    );
  }

  return (
    <div ref={listRef} className="post-list" role="feed" aria-busy={isFetching} aria-label={label}>
      {posts.map((post) => (
        <PostCard
          key={post._id}
          post={post}
          priority={post === pictured}
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
