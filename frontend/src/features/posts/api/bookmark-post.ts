import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BookmarkReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, type FailureMeta, hasStatus } from '../../../lib/query-client';
import { invalidateBookmarkLists, updateCachedBookmark } from './post-cache';
import { postPaths } from './post-paths';
import { type ToggleKind, toggleAnswered, toggleAsked, toggleSettled } from './toggle-overlay';

/** PUT /api/bookmark: saves the post for the caller (idempotent). */
export function bookmarkPost(postId: string): Promise<BookmarkReply> {
  return api<BookmarkReply>(postPaths.bookmark(true), { method: 'PUT', body: { postId } });
}

/** PUT /api/unbookmark: takes it out of the caller's bookmarks (idempotent). */
export function unbookmarkPost(postId: string): Promise<BookmarkReply> {
  return api<BookmarkReply>(postPaths.bookmark(false), { method: 'PUT', body: { postId } });
}

/** The bookmark as a toggle of the overlay (toggle-overlay.ts), the same mechanism as the like. */
export const BOOKMARK: ToggleKind<BookmarkReply> = {
  name: 'bookmark',
  stateIn: (reply) => reply.bookmarked,
  write: updateCachedBookmark,
};

const failure = (title: string): FailureMeta => ({
  errorToast: { title, withReason: everyFailure, except: hasStatus(401) },
});

/**
 * Bookmark or take the bookmark back, optimistically and race-free exactly as the like
 * (like-post.ts): the icon changes at the click, requests for one post run one after another, the
 * server's last answer wins, a failure rolls back with a toast. The Bookmarks page's lists are
 * refreshed once the requests have ended.
 */
export function useToggleBookmark(postId: string, viewerId: string | null) {
  const queryClient = useQueryClient();
  const shared = {
    scope: { id: `bookmark:${postId}` },
    onSuccess: (reply: BookmarkReply) => toggleAnswered(BOOKMARK, reply),
    onSettled: () => {
      toggleSettled(BOOKMARK, queryClient, postId);
      void invalidateBookmarkLists(queryClient);
    },
  };
  const save = useMutation({ ...shared, mutationFn: bookmarkPost, meta: failure('Could not bookmark the post') });
  const unsave = useMutation({
    ...shared,
    mutationFn: unbookmarkPost,
    meta: failure('Could not remove the bookmark'),
  });
  return (bookmarked: boolean) => {
    if (viewerId === null) return;
    toggleAsked(BOOKMARK, postId, viewerId, bookmarked);
    (bookmarked ? save : unsave).mutate(postId);
  };
}
