import { useInfiniteQuery } from '@tanstack/react-query';
import type { PostRevisionsReply } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { cursorPaging, type PageCursor } from '../../../lib/cursor-pages';
import { hasStatus } from '../../../lib/query-client';
import { postKeys } from './post-keys';
import { postPaths } from './post-paths';

/** GET /api/posts/:id/revisions: one page of the edit history, newest first. */
export function getRevisionsPage(
  postId: string,
  cursor: PageCursor,
  signal?: AbortSignal,
): Promise<PostRevisionsReply> {
  return api<PostRevisionsReply>(postPaths.revisionsPage(postId, cursor), { signal });
}

/** A post's edit history, page by page; a 403 or 404 is the screen's own message, not a toast. */
export function usePostRevisions(postId: string) {
  return useInfiniteQuery({
    queryKey: postKeys.revisions(postId),
    queryFn: ({ pageParam, signal }) => getRevisionsPage(postId, pageParam, signal),
    ...cursorPaging,
    // Read fresh each time it is opened: the author may have just saved another edit.
    staleTime: 0,
    meta: {
      errorToast: {
        title: 'Oops',
        description: 'there was an issue while fetching the history of this post!',
        except: hasStatus(403, 404),
      },
    },
  });
}
