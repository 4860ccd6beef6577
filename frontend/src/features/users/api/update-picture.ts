import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import { api, type ApiError } from '../../../lib/api-client';
import type { ErrorToast } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import { uploadImage } from '../../../lib/upload-image';
import { applyProfileChange } from './apply-profile-change';

/** An uploaded picture's URL, or DEFAULT_PROFILE_PIC to remove the picture. */
export function updatePicture(pic: string): Promise<Me> {
  return api<Me>('/updatepic', { method: 'PUT', body: { pic } });
}

function pictureFailed(action: 'updating' | 'removing'): ErrorToast {
  return {
    title: 'Oops',
    description: `there was an issue while ${action} your picture!`,
    // A refused picture (too large, not an image…): the server says why. A 401 has its own toast.
    withReason: (error: ApiError) => error.status >= 400 && error.status < 500 && error.status !== 401,
  };
}

function usePictureChange<TVariables>(
  mutationFn: (variables: TVariables) => Promise<Me>,
  action: 'updating' | 'removing',
) {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn,
    onSuccess: (me) => applyProfileChange(queryClient, updateUser, me, { picture: true }),
    meta: { errorToast: pictureFailed(action) },
  });
}

/** Uploads the chosen picture, then makes it the user's picture. */
export function useUpdatePicture() {
  return usePictureChange(async (file: File) => updatePicture(await uploadImage(file)), 'updating');
}

/** Puts the default picture back. */
export function useRemovePicture() {
  return usePictureChange<void>(() => updatePicture(DEFAULT_PROFILE_PIC), 'removing');
}
