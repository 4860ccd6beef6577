import { useMutation } from '@tanstack/react-query';
import type { MessageReply, PasswordResetConfirmRequest } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';

export function confirmReset(request: PasswordResetConfirmRequest): Promise<MessageReply> {
  return api<MessageReply>('/password-reset/confirm', { method: 'POST', body: request });
}

/** No errorToast: the form shows the server's words itself (the password's rules, a used link). */
export function useConfirmReset() {
  return useMutation({ mutationFn: confirmReset });
}
