import { useMutation } from '@tanstack/react-query';
import type { AccountContentChoice } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { accountPaths } from './account-paths';

/**
 * DELETE /api/account: gone at once (decision 049). A wrong password (403) is said at its field by
 * the dialog; the caller signs out locally once it has worked.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: { password: string; content: AccountContentChoice }) =>
      api<null>(accountPaths.account, { method: 'DELETE', body }),
    meta: {
      errorToast: {
        title: 'Could not delete your account',
        withReason: everyFailure,
        except: hasStatus(400, 401, 403),
      },
    },
  });
}
