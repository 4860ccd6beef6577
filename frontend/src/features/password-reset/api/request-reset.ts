import { useMutation } from '@tanstack/react-query';
import type { MessageReply, PasswordResetRequest } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';

export function requestReset(request: PasswordResetRequest): Promise<MessageReply> {
  return api<MessageReply>('/password-reset', { method: 'POST', body: request });
}

/** No errorToast: the form shows the server's words itself (a malformed email, the rate limit). */
export function useRequestReset() {
  return useMutation({ mutationFn: requestReset });
}
