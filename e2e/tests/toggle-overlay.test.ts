import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import type { BookmarkReply, LikeReply, Post } from '@techit/contract/api-types';
import type { PageCursor } from '../../frontend/src/lib/cursor-pages';
import { updateCachedBookmark, updateCachedLikes } from '../../frontend/src/features/posts/api/post-cache';
import { type PostPage, postKeys } from '../../frontend/src/features/posts/api/post-keys';
import {
  type ToggleKind,
  toggleAnswered,
  toggleAsked,
  toggleDrawn,
  toggleSettled,
  toggleShownOf,
} from '../../frontend/src/features/posts/api/toggle-overlay';

/*
 * The web app's optimistic toggles (the like, the bookmark) share one overlay
 * (features/posts/api/toggle-overlay.ts). These drive it as the mutations do (asked at the click,
 * answered and settled per request, one request after another) against a real QueryClient, with a
 * feed page that was asked for before the click and answers after it.
 */

const VIEWER = 'u1';
const BOOKMARK: ToggleKind<BookmarkReply> = {
  name: 'bookmark',
  stateIn: (reply) => reply.bookmarked,
  write: updateCachedBookmark,
};
const LIKE: ToggleKind<LikeReply> = {
  name: 'like',
  stateIn: (reply, viewerId) => reply.likes.includes(viewerId),
  write: updateCachedLikes,
};

let nextId = 0;
function post(bookmarked = false): Post {
  nextId += 1;
  const id = nextId.toString(16).padStart(24, '0');
  return {
    _id: id,
    bookmarked,
    likes: [],
    likesCount: 0,
    title: `post ${id}`,
  } as unknown as Post;
}

const FEED = postKeys.list({ kind: 'feed', feed: 'for-you' }, null);
type CachedList = InfiniteData<PostPage, PageCursor>;

function cachedFeedPost(client: QueryClient, postId: string): Post | undefined {
  return client
    .getQueryData<CachedList>(FEED)
    ?.pages.flatMap((page) => page.posts)
    .find((cached) => cached._id === postId);
}

function seedFeed(client: QueryClient, posts: Post[]): void {
  client.setQueryData<CachedList>(FEED, { pages: [{ posts, nextCursor: null }], pageParams: [null] });
}

/** A refetch of the feed under way, answered (with what the server had when asked) when `answer` is called. */
function feedRefetch(client: QueryClient, asItWas: Post[]) {
  let answer!: () => void;
  const arrived = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const done = client.fetchInfiniteQuery({
    queryKey: FEED,
    initialPageParam: null as PageCursor,
    queryFn: async () => {
      await arrived;
      return { posts: asItWas, nextCursor: null };
    },
  });
  return { answer, done };
}

describe('the toggle overlay (one mechanism for the like and the bookmark)', () => {
  let client: QueryClient;
  beforeEach(() => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });
  afterEach(() => client.clear());

  test('quick clicks show each click at once and end in the server’s last answer, never flickering back', () => {
    const saved = post(false);
    seedFeed(client, [saved]);
    const states: boolean[] = [];
    const click = (on: boolean) => {
      toggleAsked(BOOKMARK, saved._id, VIEWER, on);
      states.push(toggleShownOf(BOOKMARK, saved._id)!.on);
    };
    click(true);
    click(false);
    click(true);
    expect(states).toEqual([true, false, true]);
    // The three requests answer in order (the mutations' scope runs them one after another).
    for (const bookmarked of [true, false]) {
      toggleAnswered(BOOKMARK, { _id: saved._id, bookmarked });
      toggleSettled(BOOKMARK, client, saved._id);
      // Earlier answers never show while a later click is still on its way.
      expect(toggleShownOf(BOOKMARK, saved._id)).toEqual({ on: true, final: false });
    }
    toggleAnswered(BOOKMARK, { _id: saved._id, bookmarked: true });
    toggleSettled(BOOKMARK, client, saved._id);
    expect(toggleShownOf(BOOKMARK, saved._id)).toEqual({ on: true, final: true });
    expect(cachedFeedPost(client, saved._id)?.bookmarked).toBe(true);
    // A card draws it from the cache alone: the overlay is done.
    toggleDrawn(BOOKMARK, saved._id, true);
    expect(toggleShownOf(BOOKMARK, saved._id)).toBeUndefined();
  });

  test('a feed page asked for before the click and answered after it does not undo the bookmark', async () => {
    const saved = post(false);
    seedFeed(client, [saved]);
    const refetch = feedRefetch(client, [{ ...saved, bookmarked: false }]);
    toggleAsked(BOOKMARK, saved._id, VIEWER, true);
    toggleAnswered(BOOKMARK, { _id: saved._id, bookmarked: true });
    toggleSettled(BOOKMARK, client, saved._id);
    // Settled, but not final: the page under way may still bring the old state.
    expect(toggleShownOf(BOOKMARK, saved._id)).toEqual({ on: true, final: false });
    // Drawn from a cache that says "not bookmarked" while it is not final: the overlay stays.
    toggleDrawn(BOOKMARK, saved._id, false);
    expect(toggleShownOf(BOOKMARK, saved._id)?.on).toBe(true);
    refetch.answer();
    await refetch.done;
    // The server's answer went back over the old page, and the overlay is final.
    expect(cachedFeedPost(client, saved._id)?.bookmarked).toBe(true);
    expect(toggleShownOf(BOOKMARK, saved._id)).toEqual({ on: true, final: true });
  });

  test('a request that failed rolls back to the cached state', () => {
    const saved = post(true);
    seedFeed(client, [saved]);
    toggleAsked(BOOKMARK, saved._id, VIEWER, false);
    expect(toggleShownOf(BOOKMARK, saved._id)?.on).toBe(false);
    toggleSettled(BOOKMARK, client, saved._id);
    expect(toggleShownOf(BOOKMARK, saved._id)).toBeUndefined();
    expect(cachedFeedPost(client, saved._id)?.bookmarked).toBe(true);
  });

  test('a post’s like and bookmark are separate toggles of the one overlay', () => {
    const both = post(false);
    seedFeed(client, [both]);
    toggleAsked(LIKE, both._id, VIEWER, true);
    toggleAsked(BOOKMARK, both._id, VIEWER, true);
    toggleAnswered(LIKE, { _id: both._id, likes: [VIEWER], likesCount: 1 });
    toggleSettled(LIKE, client, both._id);
    expect(toggleShownOf(LIKE, both._id)).toEqual({ on: true, final: true });
    expect(toggleShownOf(BOOKMARK, both._id)).toEqual({ on: true, final: false });
    toggleSettled(BOOKMARK, client, both._id);
    expect(toggleShownOf(BOOKMARK, both._id)).toBeUndefined();
    expect(cachedFeedPost(client, both._id)).toMatchObject({ likesCount: 1, bookmarked: false });
  });
});
