import { useMutation } from '@tanstack/react-query';
import type { PasswordResetLinkReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { changeFailure } from './moderation-keys';

/** POST /api/admin/users/:id/password-reset-link (admins): a one-time link to pass on. */
export function usePasswordResetLink() {
  return useMutation({
    mutationFn: (userId: string) =>
      api<PasswordResetLinkReply>(`/admin/users/${userId}/password-reset-link`, { method: 'POST' }),
    meta: changeFailure('Could not make a password reset link'),
  });
}
