import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NoticeReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { noticesQueryKey } from './notice-list-cache';

export interface CreateNoticeRequest {
  desc: string;
  /** Always sent empty (spec 3). */
  tags: string[];
  links: string[];
}

export function createNotice(request: CreateNoticeRequest): Promise<NoticeReply> {
  return api<NoticeReply>('/createnotice', { method: 'POST', body: request });
}

export function useCreateNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticesQueryKey }),
  });
}
