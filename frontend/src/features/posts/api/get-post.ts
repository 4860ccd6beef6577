import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Post, PostReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { hasStatus } from '../../../lib/query-client';
import { findCachedPost } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** GET /api/posts/:id */
export async function getPost(postId: string, signal?: AbortSignal): Promise<Post> {
  const path = postPaths.post(postId);
  return ((await takeBootReply<PostReply>(path)) ?? (await api<PostReply>(path, { signal }))).post;
}

/** The post page's query (a 404 is its empty state, any other failure a toast). */
export function postQuery(postId: string) {
  return queryOptions({
    queryKey: postKeys.detail(postId),
    queryFn: ({ signal }) => getPost(postId, signal),
    meta: {
      errorToast: {
        title: 'Oops',
        description: "there was an issue while fetching the post, it probably doesn't exist!",
        except: hasStatus(404),
      },
    },
  });
}

/**
 * One post; a copy already in a feed shows at once while the fresh one loads. `showsError`: the
 * screen tells a failure itself (the edit page's alert), so the post page's toast is not shown.
 */
export function usePost(postId: string, options: { enabled?: boolean; showsError?: boolean } = {}) {
  const queryClient = useQueryClient();
  const query = postQuery(postId);
  return useQuery<Post, Error, Post, ReturnType<typeof postKeys.detail>>({
    ...query,
    placeholderData: () => findCachedPost(queryClient, postId),
    enabled: options.enabled ?? true,
    meta: options.showsError ? {} : query.meta,
  });
}
