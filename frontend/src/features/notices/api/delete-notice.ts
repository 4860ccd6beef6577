import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Notice } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { removeNoticeFromLists } from './notice-list-cache';

/** Its author or an admin may delete a notice; the reply is the deleted notice. */
export function deleteNotice(noticeId: string): Promise<Notice> {
  return api<Notice>(`/deletenotice/${encodeURIComponent(noticeId)}`, { method: 'DELETE' });
}

export function useDeleteNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotice,
    meta: { errorToast: { title: 'Oops', description: 'there was an issue while deleting the notice!' } },
    onSuccess: (_deleted, noticeId) => removeNoticeFromLists(queryClient, noticeId),
  });
}
