import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NoticeReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { hasStatus } from '../../../lib/query-client';
import { noticesQueryKey } from './notice-list-cache';

export interface CreateNoticeRequest {
  desc: string;
  /** Always sent empty (spec 3). */
  tags: string[];
  links: string[];
  /** The draft this notice was written in: the server deletes it once the notice is stored. */
  draftId?: string;
}

/** POST /api/createnotice; the key makes a retry of the same submission return the first notice. */
export function createNotice({
  idempotencyKey,
  ...request
}: CreateNoticeRequest & { idempotencyKey?: string }): Promise<NoticeReply> {
  return api<NoticeReply>('/createnotice', { method: 'POST', body: request, idempotencyKey });
}

export function useCreateNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotice,
    meta: {
      errorToast: {
        title: 'Oops',
        description: 'there was an issue while creating notice!',
        // A 401 already ended the session with its own 'Please login again' toast.
        except: hasStatus(401),
        // A refused link: the server says which rule it broke.
        withReason: hasStatus(400),
      },
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticesQueryKey }),
  });
}
