import type { BookmarksReply, Post } from '@techit/contract/api-types';

/** A saved post as the bookmarks list carries it: the compact post, and when the reader saved it. */
export function toBookmarkedPost(post: Post, bookmarkedAt: string): BookmarksReply['posts'][number] {
  return { ...post, bookmarkedAt };
}
