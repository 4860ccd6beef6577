import type { Feed } from '@techit/contract/enums';
import { PAGINATION } from '@techit/contract/limits';
import { type PageCursor, pageQuery } from '../../../lib/cursor-pages';

/**
 * The API addresses of the post reads, each built in one place: the fetchers (get-*.ts) request
 * them, and the build makes a visitor's first requests from them (app/first-data.ts), so the
 * boot script's replies and the app's requests name the same URL. No browser code: the build
 * imports it.
 */
export const postPaths = {
  /** GET /api/posts?feed=…&limit=4[&cursor=…] */
  feedPage: (feed: Feed, cursor: PageCursor) => `/posts?${pageQuery({ feed, limit: PAGINATION.feedPageSize, cursor })}`,
  /** GET /api/userposts/:userId?limit=4[&cursor=…] */
  userPostsPage: (userId: string, cursor: PageCursor) =>
    `/userposts/${encodeURIComponent(userId)}?${pageQuery({ limit: PAGINATION.feedPageSize, cursor })}`,
  /** GET /api/posts/:id */
  post: (postId: string) => `/posts/${encodeURIComponent(postId)}`,
  /** GET /api/top-posts */
  topPosts: () => '/top-posts',
};
