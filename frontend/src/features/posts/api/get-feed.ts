import { useInfiniteQuery } from '@tanstack/react-query';
import type { PostListReply } from '@techit/contract/api-types';
import type { HomeFeed } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import type { PageCursor } from '../../../lib/cursor-pages';
import { type PostPage, postKeys } from './post-keys';
import { postListQuery } from './post-list-query';
import { postPaths } from './post-paths';

/** GET /api/posts?feed=…&limit=4[&cursor=…] */
export async function getFeedPage(feed: HomeFeed, cursor: PageCursor, signal?: AbortSignal): Promise<PostPage> {
  return getPostPage(postPaths.feedPage(feed, cursor), signal);
}

/** GET /api/posts?feed=tag&tag=…&limit=4[&cursor=…] */
export async function getTagFeedPage(tag: string, cursor: PageCursor, signal?: AbortSignal): Promise<PostPage> {
  return getPostPage(postPaths.tagFeedPage(tag, cursor), signal);
}

async function getPostPage(path: string, signal?: AbortSignal): Promise<PostPage> {
  const reply = (await takeBootReply<PostListReply>(path)) ?? (await api<PostListReply>(path, { signal }));
  return { posts: reply.posts, nextCursor: reply.nextCursor };
}

/** The home feed's first pages, also prefetched by the route before its code has arrived. */
export function feedPostsQuery(feed: HomeFeed, viewerId: string | null) {
  return postListQuery(
    postKeys.list({ kind: 'feed', feed }, viewerId),
    (cursor, signal) => getFeedPage(feed, cursor, signal),
    { errorToast: { title: 'Oops', description: 'there was an issue while fetching posts!' } },
  );
}

/**
 * The home feed's pages. `viewerId` keys the following and "Your tags" feeds per viewer; those
 * wait for a logged-in viewer (`enabled`).
 */
export function useFeedPosts(feed: HomeFeed, viewerId: string | null, enabled = true) {
  return useInfiniteQuery({ ...feedPostsQuery(feed, viewerId), enabled });
}

/**
 * A tag's posts (its page), also started by the boot script for a visitor. The reply depends on
 * no one's mutes (decision 032), so one list for every viewer.
 */
export function tagPostsQuery(tag: string) {
  return postListQuery(
    postKeys.list({ kind: 'tag', tag }, null),
    (cursor, signal) => getTagFeedPage(tag, cursor, signal),
    { errorToast: { title: 'Oops', description: 'there was an issue while fetching posts!' } },
  );
}

export function useTagPosts(tag: string) {
  return useInfiniteQuery(tagPostsQuery(tag));
}
