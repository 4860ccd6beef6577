import { useMutation } from '@tanstack/react-query';
import type { SuspendRequest, SuspensionReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { changeFailure, useRefreshUsersAndLog } from './moderation-keys';

/** PUT /api/admin/users/:id/suspend (until absent: indefinitely) and /unsuspend. */
export function useSuspension() {
  const refresh = useRefreshUsersAndLog();
  return useMutation({
    mutationFn: ({ userId, lift, ...body }: SuspendRequest & { userId: string; lift: boolean }) =>
      api<SuspensionReply>(`/admin/users/${userId}/${lift ? 'unsuspend' : 'suspend'}`, {
        method: 'PUT',
        body: lift ? { reason: body.reason } : body,
      }),
    onSuccess: refresh,
    meta: changeFailure('Could not change the suspension'),
  });
}
