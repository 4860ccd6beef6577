import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportQueueReply, ResolveReportsReply, ResolveReportsRequest } from '@techit/contract/api-types';
import type { ReportTargetKind } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { moderationKeys } from './moderation-keys';

export interface ResolveVariables extends ResolveReportsRequest {
  targetKind: ReportTargetKind;
  targetId: string;
}

/**
 * PUT /api/reports/:targetKind/:targetId/resolve. The handled target leaves the open list at once
 * (taken out of the cached pages), then the lists and the log are fetched again.
 */
export function useResolveReports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ targetKind, targetId, ...body }: ResolveVariables) =>
      api<ResolveReportsReply>(`/reports/${targetKind}/${targetId}/resolve`, { method: 'PUT', body }),
    onSuccess: (_reply, { targetKind, targetId }) => {
      queryClient.setQueryData<InfiniteData<ReportQueueReply>>(moderationKeys.queue('open'), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                reports: page.reports.filter(
                  (group) => !(group.targetKind === targetKind && group.targetId === targetId),
                ),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: moderationKeys.queue('resolved') });
      void queryClient.invalidateQueries({ queryKey: moderationKeys.log });
      void queryClient.invalidateQueries({ queryKey: moderationKeys.usersAll });
    },
    meta: {
      errorToast: { title: 'Could not resolve the reports', withReason: everyFailure, except: hasStatus(401) },
    },
  });
}
