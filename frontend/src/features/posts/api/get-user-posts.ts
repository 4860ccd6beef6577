import { useInfiniteQuery } from '@tanstack/react-query';
import type { UserPostsReply } from '@techit/contract/api-types';
import { PAGINATION } from '@techit/contract/limits';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { type PageCursor, type PostPage, postKeys } from './post-keys';
import { pageQuery, postListQuery } from './post-list-query';

/** GET /api/userposts/:userId?limit=4[&cursor=…] */
export async function getUserPostsPage(userId: string, cursor: PageCursor, signal?: AbortSignal): Promise<PostPage> {
  const query = pageQuery({ limit: PAGINATION.feedPageSize, cursor });
  const path = `/userposts/${encodeURIComponent(userId)}?${query}`;
  const reply = (await takeBootReply<UserPostsReply>(path)) ?? (await api<UserPostsReply>(path, { signal }));
  return { posts: reply.userPosts, nextCursor: reply.nextCursor };
}

export function userPostsQuery(userId: string) {
  return postListQuery(
    postKeys.list({ kind: 'user', userId }, null),
    (cursor, signal) => getUserPostsPage(userId, cursor, signal),
    { errorToast: { title: 'Oops', description: 'there was an issue while fetching user posts!' } },
  );
}

/** One user's posts, page by page (the profile's Posts tab). */
export function useUserPosts(userId: string) {
  return useInfiniteQuery(userPostsQuery(userId));
}
