import { useMutation } from '@tanstack/react-query';
import type { MessageReply, SignUpRequest } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';

export function signUp(request: SignUpRequest): Promise<MessageReply> {
  return api<MessageReply>('/signup', { method: 'POST', body: request });
}

/** No errorToast: the sign-up form shows the server's words itself. */
export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
