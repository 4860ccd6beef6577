import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RelatedUsersReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { cursorPaging, pageQuery, type PageCursor } from '../../../lib/cursor-pages';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { blockPaths, type RelationAction, type RelationKind } from './block-paths';

const relationsKey = (kind: RelationKind) => ['relations', kind] as const;

/** The reader's own list of blocked or muted users, newest first, 20 a page ("Load more"). */
export function useRelationList(kind: RelationKind) {
  return useInfiniteQuery({
    queryKey: relationsKey(kind),
    queryFn: ({ pageParam, signal }: { pageParam: PageCursor; signal: AbortSignal }) =>
      api<RelatedUsersReply>(blockPaths.list(kind, pageQuery({ cursor: pageParam })), { signal }),
    ...cursorPaging,
    meta: {
      errorToast: {
        title: kind === 'blocks' ? 'Could not load your blocked users' : 'Could not load your muted users',
      },
    },
  });
}

const FAILED: Record<RelationAction, string> = {
  block: 'Could not block this user',
  unblock: 'Could not unblock this user',
  mute: 'Could not mute this user',
  unmute: 'Could not unmute this user',
};

/**
 * PUT /api/block, /unblock, /mute or /unmute for one user. Afterwards everything on screen is
 * asked for again: a block ends follows (profiles), a mute changes feeds and threads, and the
 * profile's viewer field and the settings' lists say the new state.
 */
export function useRelationChange(action: RelationAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<unknown>(blockPaths.change(action), { method: 'PUT', body: { userId } }),
    meta: { errorToast: { title: FAILED[action], withReason: everyFailure, except: hasStatus(401) } },
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
