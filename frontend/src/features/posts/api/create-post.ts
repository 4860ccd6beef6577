import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post, PostReply } from '@techit/contract/api-types';
import type { Category } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { hasStatus } from '../../../lib/query-client';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

export interface CreatePostRequest {
  title: string;
  desc: string;
  /** The Markdown body (issue 16); empty: none. */
  body?: string;
  /** The URL uploadImage returned, when a picture was chosen. */
  pic?: string;
  /** Empty: no category. */
  category?: Category | '';
  /** Code link; empty: none. */
  link1?: string;
  /** Demo link; empty: none. */
  link2?: string;
  /** 0 to LIMITS.postTagsMax tag names, normalised (contract/src/tag-rules.ts); on edit, [] removes them. */
  tags: string[];
  /** The draft this post was written in: the server deletes it once the post is stored. */
  draftId?: string;
}

/** POST /api/createpost; the key makes a retry of the same submission return the first post. */
export async function createPost({
  idempotencyKey,
  ...request
}: CreatePostRequest & { idempotencyKey?: string }): Promise<Post> {
  return (await api<PostReply>(postPaths.createPost(), { method: 'POST', body: request, idempotencyKey })).post;
}

/** Lists start over afterwards, so the new post is the first card of the feed. */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    // A 401 is told by the api-client or the form (create-post-form.tsx).
    meta: {
      errorToast: { title: 'Oops', description: 'there was an issue while creating post!', except: hasStatus(401) },
    },
    onSuccess: () => queryClient.resetQueries({ queryKey: postKeys.lists() }),
  });
}
