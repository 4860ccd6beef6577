import { useMutation } from '@tanstack/react-query';
import type { UploadReply } from '@techit/contract/api-types';
import { IMAGE_TYPES } from '@techit/contract/limits';
import { api, ApiError } from './api-client';
import type { ErrorToast } from './query-client';

/** For a file input's `accept`: the types the server takes. */
export const ACCEPTED_IMAGE_TYPES = Object.keys(IMAGE_TYPES).join(',');

const TYPE_NAMES = Object.values(IMAGE_TYPES);
const TYPE_LIST = `${TYPE_NAMES.slice(0, -1).join(', ')} or ${TYPE_NAMES.at(-1)}`;

/**
 * Why a chosen file cannot be a picture, before any upload; null when it may be one. Only its type
 * is checked here: the size limit is the server's setting (UPLOAD_MAX_BYTES), and its reply says it.
 */
export function imageFileProblem(file: File): string | null {
  if (file.size === 0) return `“${file.name}” is empty. Choose a ${TYPE_LIST} image.`;
  if (!(file.type in IMAGE_TYPES)) return `“${file.name}” is not a picture. Choose a ${TYPE_LIST} image.`;
  return null;
}

/** The server's reason for refusing an upload (a 4xx: the file is damaged, too large…), if that is what failed. */
export function uploadRefusal(failure: unknown): string | null {
  return failure instanceof ApiError && failure.status >= 400 && failure.status < 500 && failure.status !== 401
    ? failure.message
    : null;
}

/** Uploads a picture first; the returned URL then goes into the post, profile or sign-up. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  return (await api<UploadReply>('/upload', { method: 'POST', body: form })).url;
}

/**
 * The upload as the first step of a form's submit, its failure told the error policy's way
 * (lib/query-client.ts): each form names its own toast, as the spec words it per screen, and
 * shows the server's reason next to the picker (uploadRefusal).
 */
export function useUploadImage(errorToast: ErrorToast) {
  return useMutation({ mutationFn: uploadImage, meta: { errorToast } });
}
