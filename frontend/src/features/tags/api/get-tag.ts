import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tag, TagReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { takeBootReply } from '../../../lib/boot-replies';
import { tagPaths } from '../../../lib/tag-paths';

/**
 * A tag's page data. `following` and `muted` are the viewer's, so the entry is keyed by viewer: a
 * sign-in or sign-out is another entry, never a visitor's answer shown to a member.
 */
export const tagQueryKey = (name: string, viewerId: string | null) => ['tags', 'tag', name, viewerId] as const;

/** GET /api/tags/:name (a visitor's first request is the boot script's). */
export async function getTag(name: string, signal?: AbortSignal): Promise<Tag> {
  const path = tagPaths.tag(name);
  return ((await takeBootReply<TagReply>(path)) ?? (await api<TagReply>(path, { signal }))).tag;
}

export function tagQuery(name: string, viewerId: string | null) {
  return queryOptions({
    queryKey: tagQueryKey(name, viewerId),
    queryFn: ({ signal }) => getTag(name, signal),
    meta: { errorToast: { title: 'Oops', description: 'there was an issue while fetching this tag!' } },
  });
}

export function useTag(name: string, viewerId: string | null) {
  return useQuery(tagQuery(name, viewerId));
}
