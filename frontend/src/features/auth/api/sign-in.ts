import { useMutation } from '@tanstack/react-query';
import type { SignInReply, SignInRequest } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';

export function signIn(request: SignInRequest): Promise<SignInReply> {
  return api<SignInReply>('/signin', { method: 'POST', body: request });
}

/** No errorToast: the login form shows the server's words itself (spec 5). */
export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
