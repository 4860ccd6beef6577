import { useInfiniteQuery } from '@tanstack/react-query';
import type { ModerationLogReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { cursorPaging, pageQuery } from '../../../lib/cursor-pages';
import { moderationKeys } from './moderation-keys';

/** GET /api/moderation-log?cursor=: public, newest first; moderator names only for moderators. */
export function useModerationLog() {
  return useInfiniteQuery({
    queryKey: moderationKeys.log,
    queryFn: ({ pageParam, signal }) =>
      api<ModerationLogReply>(`/moderation-log?${pageQuery({ cursor: pageParam })}`, { signal }),
    ...cursorPaging,
    meta: { errorToast: { title: 'Oops, there was an issue fetching the moderation log!' } },
  });
}
