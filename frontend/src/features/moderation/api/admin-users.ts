import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminUsersReply,
  PasswordResetLinkReply,
  ProfileUser,
  SuspendRequest,
  SuspensionReply,
} from '@techit/contract/api-types';
import type { Role } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { cursorPaging, pageQuery } from '../../../lib/cursor-pages';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { moderationKeys } from './moderation-keys';

/** GET /api/admin/users?q=&cursor=: newest first, names containing q. */
export function useAdminUsers(q: string) {
  return useInfiniteQuery({
    queryKey: moderationKeys.users(q),
    queryFn: ({ pageParam, signal }) =>
      api<AdminUsersReply>(`/admin/users?${pageQuery({ q: q || null, cursor: pageParam })}`, { signal }),
    ...cursorPaging,
    meta: { errorToast: { title: 'Oops, there was an issue fetching the users!', except: hasStatus(401, 403) } },
  });
}

const failure = (title: string) => ({
  errorToast: { title, withReason: everyFailure, except: hasStatus(401) },
});

/** After a change, the users list and the log are read again (a role or a suspension changed). */
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['moderation', 'users'] });
    void queryClient.invalidateQueries({ queryKey: moderationKeys.log });
  };
}

/** PUT /api/admin/users/:id/role (admins). */
export function useSetRole() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api<ProfileUser>(`/admin/users/${userId}/role`, { method: 'PUT', body: { role } }),
    onSuccess: refresh,
    meta: failure('Could not change the role'),
  });
}

/** PUT /api/admin/users/:id/suspend (until absent: indefinitely) and /unsuspend. */
export function useSuspension() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ userId, lift, ...body }: SuspendRequest & { userId: string; lift: boolean }) =>
      api<SuspensionReply>(`/admin/users/${userId}/${lift ? 'unsuspend' : 'suspend'}`, {
        method: 'PUT',
        body: lift ? { reason: body.reason } : body,
      }),
    onSuccess: refresh,
    meta: failure('Could not change the suspension'),
  });
}

/** POST /api/admin/users/:id/password-reset-link (admins): a one-time link to pass on. */
export function usePasswordResetLink() {
  return useMutation({
    mutationFn: (userId: string) =>
      api<PasswordResetLinkReply>(`/admin/users/${userId}/password-reset-link`, { method: 'POST' }),
    meta: failure('Could not make a password reset link'),
  });
}
