import { useCallback } from 'react';
import { notify } from '../lib/notify';
import { useSession } from '../lib/session';

/**
 * Wraps an action that needs a session: a visitor gets the spec's 'Login Required!' toast with
 * the given message (e.g. 'Please login to like a post') instead.
 */
export function useRequireLogin(): (message: string, action: () => void) => void {
  const { user } = useSession();
  return useCallback(
    (message: string, action: () => void) => {
      if (user) action();
      else notify.loginRequired(message);
    },
    [user],
  );
}
