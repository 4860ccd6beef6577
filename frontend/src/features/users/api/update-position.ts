import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { applyProfileChange } from './apply-profile-change';

export function updatePosition(position: string): Promise<Me> {
  return api<Me>('/position', { method: 'PUT', body: { position } });
}

export function useUpdatePosition() {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: updatePosition,
    meta: { errorToast: { title: 'Oops', description: 'there was an issue while updating your position!' } },
    onSuccess: (me) => applyProfileChange(queryClient, updateUser, me),
  });
}
