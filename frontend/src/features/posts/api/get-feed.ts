import { useInfiniteQuery } from '@tanstack/react-query';
import type { PostListReply } from '@techit/contract/api-types';
import type { Feed } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import type { PageCursor } from '../../../lib/cursor-pages';
import { type PostPage, postKeys } from './post-keys';
import { postListQuery } from './post-list-query';
import { postPaths } from './post-paths';

/** GET /api/posts?feed=…&limit=4[&cursor=…] */
export async function getFeedPage(feed: Feed, cursor: PageCursor, signal?: AbortSignal): Promise<PostPage> {
  const path = postPaths.feedPage(feed, cursor);
  const reply = (await takeBootReply<PostListReply>(path)) ?? (await api<PostListReply>(path, { signal }));
  return { posts: reply.posts, nextCursor: reply.nextCursor };
}

/** The home feed's first pages, also prefetched by the route before its code has arrived. */
export function feedPostsQuery(feed: Feed, viewerId: string | null) {
  return postListQuery(
    postKeys.list({ kind: 'feed', feed }, viewerId),
    (cursor, signal) => getFeedPage(feed, cursor, signal),
    { errorToast: { title: 'Oops', description: 'there was an issue while fetching posts!' } },
  );
}

/**
 * The home feed's pages. `viewerId` keys the following feed per viewer; the following feed waits
 * for a logged-in viewer (`enabled`).
 */
export function useFeedPosts(feed: Feed, viewerId: string | null, enabled = true) {
  return useInfiniteQuery({ ...feedPostsQuery(feed, viewerId), enabled });
}
