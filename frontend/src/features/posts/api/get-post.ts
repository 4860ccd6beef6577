import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Post, PostReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { findCachedPost } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** GET /api/posts/:id */
export async function getPost(postId: string, signal?: AbortSignal): Promise<Post> {
  const path = postPaths.post(postId);
  return ((await takeBootReply<PostReply>(path)) ?? (await api<PostReply>(path, { signal }))).post;
}

export function postQuery(postId: string) {
  return queryOptions({ queryKey: postKeys.detail(postId), queryFn: ({ signal }) => getPost(postId, signal) });
}

/** One post; a copy already in a feed shows at once while the fresh one loads. */
export function usePost(postId: string, options: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useQuery<Post, Error, Post, ReturnType<typeof postKeys.detail>>({
    ...postQuery(postId),
    placeholderData: () => findCachedPost(queryClient, postId),
    enabled: options.enabled ?? true,
  });
}
