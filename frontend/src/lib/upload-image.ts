import type { UploadReply } from '@techit/contract/api-types';
import { api } from './api-client';

/** Uploads a picture first; the returned URL then goes into the post, profile or sign-up. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  return (await api<UploadReply>('/upload', { method: 'POST', body: form })).url;
}
