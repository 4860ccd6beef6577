import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkReadRequest, UnreadCountReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { markReadInCache, notificationListQueryKey, setUnreadCount, unreadCountQueryKey } from './notification-cache';
import { notificationPaths } from './notification-paths';

export function markRead(request: MarkReadRequest): Promise<UnreadCountReply> {
  return api<UnreadCountReply>(notificationPaths.read, { method: 'PUT', body: request });
}

/**
 * Marks notifications read (those opened, or all). The list and the bells change at once; the
 * server's count follows, and a failure puts the server's state back with a toast.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markRead,
    // One after another: "mark all" then an opened item must not land in the other order.
    scope: { id: 'notifications-read' },
    onMutate: (request) => {
      const ids = 'ids' in request ? request.ids : null;
      const before = queryClient.getQueryData<UnreadCountReply>(unreadCountQueryKey)?.unreadCount ?? 0;
      markReadInCache(queryClient, ids);
      setUnreadCount(queryClient, ids === null ? 0 : Math.max(before - ids.length, 0));
    },
    onSuccess: (reply) => setUnreadCount(queryClient, reply.unreadCount),
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: notificationListQueryKey });
      void queryClient.invalidateQueries({ queryKey: unreadCountQueryKey });
    },
    meta: { errorToast: { title: 'Could not mark the notifications read' } },
  });
}
