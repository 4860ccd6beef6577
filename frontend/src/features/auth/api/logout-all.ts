import type { MessageReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';

/** Ends every session of the caller on the server: each token issued so far answers 401 from now on. */
export function logoutAll(): Promise<MessageReply> {
  return api<MessageReply>('/logout-all', { method: 'POST' });
}
