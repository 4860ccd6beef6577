import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReportQueueReply } from '@techit/contract/api-types';
import type { ReportStatus } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { cursorPaging, pageQuery } from '../../../lib/cursor-pages';
import { hasStatus } from '../../../lib/query-client';
import { moderationKeys } from './moderation-keys';

/** GET /api/reports?status=&cursor=: the queue, grouped by target, worst first. */
export function useReportQueue(status: ReportStatus) {
  return useInfiniteQuery({
    queryKey: moderationKeys.queue(status),
    queryFn: ({ pageParam, signal }) =>
      api<ReportQueueReply>(`/reports?${pageQuery({ status, cursor: pageParam })}`, { signal }),
    ...cursorPaging,
    meta: { errorToast: { title: 'Oops, there was an issue fetching the reports!', except: hasStatus(401, 403) } },
  });
}
