import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TopPost, TopPostsReply } from '@techit/contract/api-types';
import type { TopPostWindow } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** GET /api/top-posts[?window=…] */
export async function getTopPosts(window: TopPostWindow | null, signal?: AbortSignal): Promise<TopPost[]> {
  const path = postPaths.topPosts(window);
  return ((await takeBootReply<TopPostsReply>(path)) ?? (await api<TopPostsReply>(path, { signal }))).posts;
}

/** No errorToast: the spec keeps top posts errors on the console (lib/query-client.ts logs them). */
export function topPostsQuery(window: TopPostWindow | null = null) {
  return queryOptions({ queryKey: postKeys.top(window), queryFn: ({ signal }) => getTopPosts(window, signal) });
}

/** `window` null: the default view, the seed's all-time top posts (the boot script's request). */
export function useTopPosts(window: TopPostWindow | null = null) {
  return useQuery(topPostsQuery(window));
}
