import { useInfiniteQuery } from '@tanstack/react-query';
import type { BookmarksReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import type { PageCursor } from '../../../lib/cursor-pages';
import { type PostPage, postKeys } from './post-keys';
import { postListQuery } from './post-list-query';
import { postPaths } from './post-paths';

/** GET /api/bookmarks?limit=20[&q=…][&tag=…][&cursor=…]: the viewer's saved posts, newest saved first. */
export async function getBookmarksPage(
  q: string,
  tag: string,
  cursor: PageCursor,
  signal?: AbortSignal,
): Promise<PostPage> {
  const reply = await api<BookmarksReply>(postPaths.bookmarksPage(q, tag, cursor), { signal });
  return { posts: reply.posts, nextCursor: reply.nextCursor };
}

/**
 * The Bookmarks page's list: a post list like the feeds, kept with them under ['posts', 'list'],
 * so a like, an edit, a deleted post or a removed bookmark reaches its cards too (post-cache.ts).
 * Each viewer's own; each search and tag its own list.
 */
export function bookmarksQuery(q: string, tag: string, viewerId: string | null) {
  return postListQuery(
    postKeys.list({ kind: 'bookmarks', q, tag }, viewerId),
    (cursor, signal) => getBookmarksPage(q, tag, cursor, signal),
    { errorToast: { title: 'Oops', description: 'there was an issue while fetching your bookmarks!' } },
  );
}

/** Only for a signed-in viewer (the route needs a session; the list waits for it). */
export function useBookmarks(q: string, tag: string, viewerId: string | null) {
  return useInfiniteQuery({ ...bookmarksQuery(q, tag, viewerId), enabled: viewerId !== null });
}
