import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { BookmarkReply, Comment, CommentsReply, LikeReply, Post } from '@techit/contract/api-types';
import type { PageCursor } from '../../../lib/cursor-pages';
import { afterDeletion } from '../components/comment-tree-builder';
import { type PostListSource, type PostPage, postKeys } from './post-keys';

type CachedList = InfiniteData<PostPage, PageCursor>;

function mapLists(queryClient: QueryClient, change: (posts: Post[]) => Post[]): void {
  queryClient.setQueriesData<CachedList>({ queryKey: postKeys.lists() }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, posts: change(page.posts) })) } : data,
  );
}

/** The server's updated copy of a post (after a like, comment or edit) replaces every cached copy. */
export function updateCachedPost(queryClient: QueryClient, post: Post): void {
  mapLists(queryClient, (posts) => posts.map((cached) => (cached._id === post._id ? post : cached)));
  queryClient.setQueryData(postKeys.detail(post._id), post);
}

/** A like or unlike changes only the like fields: every cached copy takes them, the rest stays. */
export function updateCachedLikes(queryClient: QueryClient, { _id, likes, likesCount }: LikeReply): void {
  const apply = (post: Post): Post => (post._id === _id ? { ...post, likes, likesCount } : post);
  mapLists(queryClient, (posts) => posts.map(apply));
  queryClient.setQueryData<Post>(postKeys.detail(_id), (post) => (post ? apply(post) : post));
}

/** A bookmark or its removal changes only `bookmarked`: every cached copy takes it. */
export function updateCachedBookmark(queryClient: QueryClient, { _id, bookmarked }: BookmarkReply): void {
  const apply = (post: Post): Post => (post._id === _id ? { ...post, bookmarked } : post);
  mapLists(queryClient, (posts) => posts.map(apply));
  queryClient.setQueryData<Post>(postKeys.detail(_id), (post) => (post ? apply(post) : post));
}

/**
 * The Bookmarks page's lists are out of date after a bookmark or its removal: the one on screen
 * refetches, the others when next shown.
 */
export function invalidateBookmarkLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    queryKey: postKeys.lists(),
    predicate: ({ queryKey }) => (queryKey[2] as PostListSource | undefined)?.kind === 'bookmarks',
  });
}

/** A deleted post leaves every list at once. */
export function removeCachedPostFromLists(queryClient: QueryClient, postId: string): void {
  mapLists(queryClient, (posts) => posts.filter((cached) => cached._id !== postId));
}

/** The post as some list already holds it: shown at once while its own copy loads. */
export function findCachedPost(queryClient: QueryClient, postId: string): Post | undefined {
  for (const [, data] of queryClient.getQueriesData<CachedList>({ queryKey: postKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const post = page.posts.find((candidate) => candidate._id === postId);
      if (post) return post;
    }
  }
  return undefined;
}

/** Drops a deleted post's own entry; call it once no page shows that post any more. */
export function forgetPost(queryClient: QueryClient, postId: string): void {
  queryClient.removeQueries({ queryKey: postKeys.detail(postId), exact: true });
}

/**
 * Applies `change` to every cached list of the post's comments: its own copy, the copies in post
 * lists, the pages loaded beyond the first (get-more-comments.ts) and the subthreads
 * (get-thread.ts). `change` answers null to take a comment out.
 */
function mapCachedComments(queryClient: QueryClient, postId: string, change: (comment: Comment) => Comment | null) {
  const apply = (comments: Comment[]) =>
    comments.flatMap((comment) => {
      const changed = change(comment);
      return changed ? [changed] : [];
    });
  const applyToPost = (post: Post): Post => (post._id === postId ? { ...post, comments: apply(post.comments) } : post);
  mapLists(queryClient, (posts) => posts.map(applyToPost));
  queryClient.setQueryData<Post>(postKeys.detail(postId), (post) => (post ? applyToPost(post) : post));
  queryClient.setQueriesData<InfiniteData<CommentsReply, string>>(
    { queryKey: postKeys.moreCommentsOf(postId) },
    (data) =>
      data ? { ...data, pages: data.pages.map((page) => ({ ...page, comments: apply(page.comments) })) } : data,
  );
  queryClient.setQueriesData<CommentsReply>({ queryKey: postKeys.threadsOf(postId) }, (data) =>
    data ? { ...data, comments: apply(data.comments) } : data,
  );
}

/** Every comment of the post the cache holds, in any of its lists (once each). */
function cachedComments(queryClient: QueryClient, postId: string): Comment[] {
  const all = new Map<string, Comment>();
  mapCachedComments(queryClient, postId, (comment) => {
    all.set(comment._id, comment);
    return comment;
  });
  return [...all.values()];
}

/** An edited comment, as the server now renders it, replaces its copies wherever they are cached. */
export function replaceCachedComment(queryClient: QueryClient, postId: string, edited: Comment): void {
  mapCachedComments(queryClient, postId, (comment) => (comment._id === edited._id ? edited : comment));
}

/**
 * A deleted comment leaves every cached list of its thread (then the server's reply replaces the
 * post's own first page): it becomes the "[deleted]" placeholder when it has
 * replies, and placeholders left without replies go (comment-tree-builder.ts afterDeletion).
 */
export function removeCachedComment(queryClient: QueryClient, postId: string, commentId: string): void {
  mapCachedComments(queryClient, postId, afterDeletion(cachedComments(queryClient, postId), commentId));
}
