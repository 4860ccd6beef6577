import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TopPost, TopPostsReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** GET /api/top-posts */
export async function getTopPosts(signal?: AbortSignal): Promise<TopPost[]> {
  const path = postPaths.topPosts();
  return ((await takeBootReply<TopPostsReply>(path)) ?? (await api<TopPostsReply>(path, { signal }))).posts;
}

/** No errorToast: the spec keeps top posts errors on the console (lib/query-client.ts logs them). */
export function topPostsQuery() {
  return queryOptions({ queryKey: postKeys.top(), queryFn: ({ signal }) => getTopPosts(signal) });
}

export function useTopPosts() {
  return useQuery(topPostsQuery());
}
