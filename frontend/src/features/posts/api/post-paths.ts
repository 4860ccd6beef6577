import type { HomeFeed, PostView, TopPostWindow } from '@techit/contract/enums';
import { BOOKMARKS, COMMENT_PAGE, PAGINATION } from '@techit/contract/limits';
import { type PageCursor, pageQuery } from '../../../lib/cursor-pages';

/**
 * The web app draws counts (likesCount, commentsCount) and the viewer's own like, never the list
 * of likers, so every post route is asked for the compact form: small replies whatever a post's
 * popularity (docs/decisions/006-lean-post-replies.md).
 */
const VIEW: PostView = 'compact';
const view = `view=${VIEW}`;

/**
 * The API addresses of the post routes, each built in one place: the fetchers and mutations
 * (get-*.ts, like-post.ts, …) request them, and the build makes a visitor's first requests from the
 * reads (app/first-data.ts), so the boot script's replies and the app's requests name the same
 * URL. No browser code: the build imports it.
 */
export const postPaths = {
  /** GET /api/posts?feed=…&limit=4[&cursor=…]&view=compact */
  feedPage: (feed: HomeFeed, cursor: PageCursor) =>
    `/posts?${pageQuery({ feed, limit: PAGINATION.feedPageSize, cursor, view: VIEW })}`,
  /** GET /api/posts?feed=tag&tag=…&limit=4[&cursor=…]&view=compact: one tag's posts (the tag page). */
  tagFeedPage: (tag: string, cursor: PageCursor) =>
    `/posts?${pageQuery({ feed: 'tag', tag, limit: PAGINATION.feedPageSize, cursor, view: VIEW })}`,
  /** GET /api/userposts/:userId?limit=4[&cursor=…]&view=compact */
  userPostsPage: (userId: string, cursor: PageCursor) =>
    `/userposts/${encodeURIComponent(userId)}?${pageQuery({ limit: PAGINATION.feedPageSize, cursor, view: VIEW })}`,
  /** GET /api/posts/:id?view=compact: the post and the first page of its comments. */
  post: (postId: string) => `/posts/${encodeURIComponent(postId)}?${view}`,
  /** GET /api/posts/:id/comments?limit=50&cursor=…: the page of comments after `cursor`. */
  commentsPage: (postId: string, cursor: string) =>
    `/posts/${encodeURIComponent(postId)}/comments?${pageQuery({ limit: COMMENT_PAGE.defaultSize, cursor })}`,
  /** GET /api/posts/:id/comments?thread=…: the comment's ancestors, itself and its replies. */
  thread: (postId: string, commentId: string) =>
    `/posts/${encodeURIComponent(postId)}/comments?${pageQuery({ thread: commentId })}`,
  /** GET /api/posts/:id/revisions[?cursor=…]: the edit history, newest first. */
  revisionsPage: (postId: string, cursor: PageCursor) => {
    const query = pageQuery({ cursor });
    return `/posts/${encodeURIComponent(postId)}/revisions${query ? `?${query}` : ''}`;
  },
  /** GET /api/top-posts[?window=…]: no window is the seed's default, the all-time top posts. */
  topPosts: (window: TopPostWindow | null = null) => `/top-posts${window ? `?${pageQuery({ window })}` : ''}`,
  /** POST /api/createpost */
  createPost: () => `/createpost?${view}`,
  /** PUT /api/editpost/:id */
  editPost: (postId: string) => `/editpost/${encodeURIComponent(postId)}?${view}`,
  /** DELETE /api/deletepost/:id */
  deletePost: (postId: string) => `/deletepost/${encodeURIComponent(postId)}?${view}`,
  /** PUT /api/like or /api/unlike */
  like: (like: boolean) => `/${like ? 'like' : 'unlike'}?${view}`,
  /** PUT /api/bookmark or /api/unbookmark (the reply carries no post: no view). */
  bookmark: (bookmark: boolean) => `/${bookmark ? 'bookmark' : 'unbookmark'}`,
  /** GET /api/bookmarks?limit=20[&q=…][&tag=…][&cursor=…]: the viewer's saved posts, newest saved first (compact). */
  bookmarksPage: (q: string, tag: string, cursor: PageCursor) =>
    `/bookmarks?${pageQuery({ limit: BOOKMARKS.defaultLimit, q: q || null, tag: tag || null, cursor })}`,
  /** PUT /api/comment */
  comment: () => `/comment?${view}`,
  /** PUT /api/comment/:postId/:commentId (the author edits) and DELETE /api/comment/:postId/:commentId */
  deleteComment: (postId: string, commentId: string) =>
    `/comment/${encodeURIComponent(postId)}/${encodeURIComponent(commentId)}?${view}`,
};
