import type { SignInReply, SignInRequest } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';

export function signIn(request: SignInRequest): Promise<SignInReply> {
  return api<SignInReply>('/signin', { method: 'POST', body: request });
}
