import { useMutation } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import { accountPaths } from './account-paths';

/**
 * PUT /api/email: answers the updated Me, which becomes the stored user (the navigation shows the
 * address). A wrong password (403), a taken address (409) and a refused one (400) are said at
 * their fields by the form.
 */
export function useChangeEmail() {
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: (body: { password: string; email: string }) => api<Me>(accountPaths.email, { method: 'PUT', body }),
    meta: {
      errorToast: {
        title: 'Could not change your email',
        withReason: everyFailure,
        except: hasStatus(400, 401, 403, 409),
      },
    },
    onSuccess: (me) => updateUser(me),
  });
}
