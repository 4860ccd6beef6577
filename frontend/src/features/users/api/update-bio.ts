import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { applyProfileChange } from './apply-profile-change';

export function updateBio(bio: string): Promise<Me> {
  return api<Me>('/bio', { method: 'PUT', body: { bio } });
}

export function useUpdateBio() {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: updateBio,
    meta: { errorToast: { title: 'Oops', description: 'there was an issue while updating your bio!' } },
    onSuccess: (me) => applyProfileChange(queryClient, updateUser, me),
  });
}
