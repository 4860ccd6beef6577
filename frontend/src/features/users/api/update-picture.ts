import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { applyProfileChange } from './apply-profile-change';

/** An uploaded picture's URL, or DEFAULT_PROFILE_PIC to remove the picture. */
export function updatePicture(pic: string): Promise<Me> {
  return api<Me>('/updatepic', { method: 'PUT', body: { pic } });
}

export function useUpdatePicture() {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: updatePicture,
    onSuccess: (me) => applyProfileChange(queryClient, updateUser, me, { picture: true }),
  });
}
