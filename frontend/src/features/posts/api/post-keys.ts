import type { Post } from '@techit/contract/api-types';
import type { Feed } from '@techit/contract/enums';

/** Where a list of post cards comes from: a home feed or one user's posts. */
export type PostListSource = { kind: 'feed'; feed: Feed } | { kind: 'user'; userId: string };

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
  /** `viewerId` matters for the following feed only: it is a different list for each viewer. */
  list: (source: PostListSource, viewerId: string | null) =>
    ['posts', 'list', source, source.kind === 'feed' && source.feed === 'following' ? viewerId : null] as const,
  details: () => ['posts', 'detail'] as const,
  detail: (postId: string) => ['posts', 'detail', postId] as const,
  top: () => ['posts', 'top'] as const,
  /** A post's edit history (its author and admins only). */
  revisions: (postId: string) => ['posts', 'revisions', postId] as const,
  /** The comments of a thread after the first page its post carries, keyed by where they start. */
  moreComments: (postId: string, after: string) => ['posts', 'comments', postId, after] as const,
  moreCommentsOf: (postId: string) => ['posts', 'comments', postId] as const,
  /** The mutation of a new comment, so the thread can find and show the comment it posted. */
  addComment: (postId: string) => ['posts', 'add-comment', postId] as const,
};

export type PostListKey = ReturnType<typeof postKeys.list>;
