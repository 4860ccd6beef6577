import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post, PostReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { postKeys } from './post-keys';

export interface CreatePostRequest {
  title: string;
  desc: string;
  /** The URL uploadImage returned, when a picture was chosen. */
  pic?: string;
}

/** POST /api/createpost */
export async function createPost(request: CreatePostRequest): Promise<Post> {
  return (await api<PostReply>('/createpost', { method: 'POST', body: request })).post;
}

/** Lists start over afterwards, so the new post is the first card of the feed. */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: () => queryClient.resetQueries({ queryKey: postKeys.lists() }),
  });
}
