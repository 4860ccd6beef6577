import { useQueryClient } from '@tanstack/react-query';
import { everyFailure, type FailureMeta, hasStatus } from '../../../lib/query-client';

/** The query keys of the moderation screens (the admin area and the public log). */
export const moderationKeys = {
  all: ['moderation'] as const,
  queue: (status: 'open' | 'resolved') => ['moderation', 'queue', status] as const,
  usersAll: ['moderation', 'users'] as const,
  users: (q: string) => ['moderation', 'users', q] as const,
  log: ['moderation', 'log'] as const,
};

/** After a change of role or suspension, the users list and the log are read again. */
export function useRefreshUsersAndLog(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: moderationKeys.usersAll });
    void queryClient.invalidateQueries({ queryKey: moderationKeys.log });
  };
}

/** A change's failure toast: the server's sentence says what was refused. */
export const changeFailure = (title: string): FailureMeta => ({
  errorToast: { title, withReason: everyFailure, except: hasStatus(401) },
});
