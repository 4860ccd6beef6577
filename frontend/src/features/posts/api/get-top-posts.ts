import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TopPost, TopPostsReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { postKeys } from './post-keys';

/** GET /api/top-posts */
export async function getTopPosts(signal?: AbortSignal): Promise<TopPost[]> {
  return (await api<TopPostsReply>('/top-posts', { signal })).posts;
}

export function topPostsQuery() {
  return queryOptions({ queryKey: postKeys.top(), queryFn: ({ signal }) => getTopPosts(signal) });
}

export function useTopPosts() {
  return useQuery(topPostsQuery());
}
