import { useMutation } from '@tanstack/react-query';
import type { ProfileUser } from '@techit/contract/api-types';
import type { Role } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { changeFailure, useRefreshUsersAndLog } from './moderation-keys';

/** PUT /api/admin/users/:id/role (admins). */
export function useSetRole() {
  const refresh = useRefreshUsersAndLog();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api<ProfileUser>(`/admin/users/${userId}/role`, { method: 'PUT', body: { role } }),
    onSuccess: refresh,
    meta: changeFailure('Could not change the role'),
  });
}
