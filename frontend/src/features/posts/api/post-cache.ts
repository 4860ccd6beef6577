import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { CommentsReply, LikeReply, Post } from '@techit/contract/api-types';
import type { PageCursor } from '../../../lib/cursor-pages';
import { type PostPage, postKeys } from './post-keys';

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

/** A deleted comment leaves the pages of its thread loaded beyond the first (get-more-comments.ts). */
export function removeCachedComment(queryClient: QueryClient, postId: string, commentId: string): void {
  queryClient.setQueriesData<InfiniteData<CommentsReply, string>>(
    { queryKey: postKeys.moreCommentsOf(postId) },
    (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              comments: page.comments.filter((comment) => comment._id !== commentId),
            })),
          }
        : data,
  );
}
