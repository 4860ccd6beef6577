import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@techit/contract/api-types';
import type { Category } from '@techit/contract/enums';
import { api } from '../../../lib/api-client';
import { updateCachedPost } from './post-cache';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

export interface EditPostRequest {
  title: string;
  /** Empty: no category. */
  category: Category | '';
  desc: string;
  /** The Markdown body (issue 16); empty removes it. */
  body: string;
  /** Code link; empty removes it. */
  link1: string;
  /** Demo link; empty removes it. */
  link2: string;
  /** 0 to LIMITS.postTagsMax tag names, normalised (contract/src/tag-rules.ts); on edit, [] removes them. */
  tags: string[];
  /** A newly uploaded picture; left out, the current one stays. */
  pic?: string;
  /** The post's edit draft: the server deletes it once the edit is stored. */
  draftId?: string;
}

/** PUT /api/editpost/:id */
export function editPost(postId: string, request: EditPostRequest): Promise<Post> {
  return api<Post>(postPaths.editPost(postId), { method: 'PUT', body: request });
}

export function useEditPost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: EditPostRequest) => editPost(postId, request),
    onSuccess: (post) => {
      updateCachedPost(queryClient, post);
      void queryClient.invalidateQueries({ queryKey: postKeys.tops() });
    },
  });
}
