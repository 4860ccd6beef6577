import type { Post } from '@techit/contract/api-types';
import type { HomeFeed, TopPostWindow } from '@techit/contract/enums';

/**
 * Where a list of post cards comes from: a home feed, one tag's posts (its page), one user's posts,
 * or the viewer's bookmarks (the Bookmarks page, searched by `q` and filtered by `tag`; '' for none).
 */
export type PostListSource =
  | { kind: 'feed'; feed: HomeFeed }
  | { kind: 'tag'; tag: string }
  | { kind: 'user'; userId: string }
  | { kind: 'bookmarks'; q: string; tag: string };

/** The feeds that are a different list for each viewer: whom they follow, which tags they follow. */
const PER_VIEWER: readonly HomeFeed[] = ['following', 'tags'];

/** One page of any post list, whichever endpoint it came from. */
export interface PostPage {
  posts: Post[];
  /** The server's opaque keyset cursor for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Every cached piece of post data lives under ['posts', …], so a like, an edit or a delete can
 * reach every list and detail that shows the post.
 */
export const postKeys = {
  all: ['posts'] as const,
  lists: () => ['posts', 'list'] as const,
  /**
   * `viewerId` matters for the following and "Your tags" feeds and the bookmarks only: each is a
   * different list for each viewer.
   */
  list: (source: PostListSource, viewerId: string | null) =>
    [
      'posts',
      'list',
      source,
      source.kind === 'bookmarks' || (source.kind === 'feed' && PER_VIEWER.includes(source.feed)) ? viewerId : null,
    ] as const,
  details: () => ['posts', 'detail'] as const,
  detail: (postId: string) => ['posts', 'detail', postId] as const,
  /** Every window's top posts. */
  tops: () => ['posts', 'top'] as const,
  /** `window` null: the default view (the all-time top posts, as the seed answers them). */
  top: (window: TopPostWindow | null) => ['posts', 'top', window] as const,
  /** A post's edit history (its author and admins only). */
  revisions: (postId: string) => ['posts', 'revisions', postId] as const,
  /** The comments of a thread after the first page its post carries, keyed by where they start. */
  moreComments: (postId: string, after: string) => ['posts', 'comments', postId, after] as const,
  moreCommentsOf: (postId: string) => ['posts', 'comments', postId] as const,
  /** One comment's subthread (its ancestors, itself, its replies): "Continue this thread" and permalinks. */
  thread: (postId: string, commentId: string) => ['posts', 'thread', postId, commentId] as const,
  threadsOf: (postId: string) => ['posts', 'thread', postId] as const,
  /** The mutation of a new comment, so the thread can find and show the comment it posted. */
  addComment: (postId: string) => ['posts', 'add-comment', postId] as const,
};

export type PostListKey = ReturnType<typeof postKeys.list>;
