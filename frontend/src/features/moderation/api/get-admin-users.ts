import { useInfiniteQuery } from '@tanstack/react-query';
import type { AdminUsersReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { cursorPaging, pageQuery } from '../../../lib/cursor-pages';
import { hasStatus } from '../../../lib/query-client';
import { moderationKeys } from './moderation-keys';

/** GET /api/admin/users?q=&cursor=: newest first, names containing q. */
export function useAdminUsers(q: string) {
  return useInfiniteQuery({
    queryKey: moderationKeys.users(q),
    queryFn: ({ pageParam, signal }) =>
      api<AdminUsersReply>(`/admin/users?${pageQuery({ q: q || null, cursor: pageParam })}`, { signal }),
    ...cursorPaging,
    meta: { errorToast: { title: 'Oops, there was an issue fetching the users!', except: hasStatus(401, 403) } },
  });
}
