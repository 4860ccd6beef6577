import { useMutation } from '@tanstack/react-query';
import type { UploadReply } from '@techit/contract/api-types';
import { api } from './api-client';
import type { ErrorToast } from './query-client';

/** Uploads a picture first; the returned URL then goes into the post, profile or sign-up. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  return (await api<UploadReply>('/upload', { method: 'POST', body: form })).url;
}

/**
 * The upload as the first step of a form's submit, its failure told the error policy's way
 * (lib/query-client.ts): each form names its own toast, as the spec words it per screen.
 */
export function useUploadImage(errorToast: ErrorToast) {
  return useMutation({ mutationFn: uploadImage, meta: { errorToast } });
}
