import { useInfiniteQuery } from '@tanstack/react-query';
import type { UserPostsReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import type { PageCursor } from '../../../lib/cursor-pages';
import { type PostPage, postKeys } from './post-keys';
import { postListQuery } from './post-list-query';
import { postPaths } from './post-paths';

/** GET /api/userposts/:userId?limit=4[&cursor=…] */
export async function getUserPostsPage(userId: string, cursor: PageCursor, signal?: AbortSignal): Promise<PostPage> {
  const path = postPaths.userPostsPage(userId, cursor);
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
