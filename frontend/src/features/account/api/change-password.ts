import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import { accountPaths } from './account-paths';

/**
 * PUT /api/password: every other session ends, and so does the token that asked; the reply's
 * token is stored at once, so this browser stays signed in. A wrong current password (403) and a
 * refused new one (400) are said at their fields by the form, not in a toast.
 */
export function useChangePassword() {
  const { renewToken } = useSession();
  return useMutation({
    mutationFn: (body: { current: string; next: string }) =>
      api<ChangePasswordReply>(accountPaths.password, { method: 'PUT', body }),
    meta: {
      errorToast: {
        title: 'Could not change your password',
        withReason: everyFailure,
        except: hasStatus(400, 401, 403),
      },
    },
    onSuccess: (reply) => renewToken(reply.token),
  });
}
