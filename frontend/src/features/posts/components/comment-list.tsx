import { DeleteOutlined } from '@ant-design/icons';
import { useMutationState, useQueryClient } from '@tanstack/react-query';
import type { Comment, Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { confirm } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useDeleteComment } from '../api/delete-comment';
import { useMoreComments } from '../api/get-more-comments';
import { postKeys } from '../api/post-keys';
import { RelativeTime } from '../../../components/relative-time';
import { RenderedMarkdown } from '../../../components/rendered-markdown';
import { busy } from '../../../lib/busy';

/**
 * Oldest first: the first page the post carries, then the pages asked for with "Show more
 * comments". A comment's author, the post's author and admins may delete it, after confirming. A comment the viewer
 * has just posted is brought into view and highlighted, loading the pages before it if needed.
 */
export function CommentList({ post }: { post: Post }) {
  const { user, isAdmin } = useSession();
  const remove = useDeleteComment(post._id);
  // undefined: a copy from a list (a preview, not a first page) while the post's own loads.
  const after = post.commentsNextCursor ?? null;
  const more = useMoreComments(post._id, after ?? '');
  const loaded = after === null ? [] : (more.data?.pages.flatMap((page) => page.comments) ?? []);
  const comments = withoutRepeats([...post.comments, ...loaded]);
  const hasMore = after !== null && (more.data ? more.hasNextPage : true);
  const newComment = useOwnNewComment(post._id, user?._id ?? null, more);
  // After "Show more comments" the keyboard goes on from the first comment it brought (the button
  // is gone after the last page, and focus would fall back to the page's start).
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (focusFrom === null || comments.length <= focusFrom) return;
    listRef.current?.querySelectorAll<HTMLElement>(':scope > li.comment')[focusFrom]?.focus();
    setFocusFrom(null);
  }, [focusFrom, comments.length]);
  // As for posts and notices: a real dialog, the safe choice focused. It closes either way; a
  // failure is told by the mutation's errorToast (lib/query-client.ts).
  const confirmDelete = (commentId: string) =>
    confirm({
      title: 'Are you sure you want to delete this comment?',
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      focusable: { autoFocusButton: 'cancel' },
      onOk: () =>
        remove.mutateAsync(commentId).then(
          () => undefined,
          () => undefined,
        ),
    });

  if (comments.length === 0) {
    return <span className="secondary-text">No comments yet. Be the first!</span>;
  }

  return (
    <ul className="plain-list comment-list" ref={listRef}>
      {comments.map((comment) => {
        const canDelete =
          user !== null && (isAdmin || user._id === comment.postedBy._id || user._id === post.postedBy._id);
        return (
          <li
            key={comment._id}
            id={commentElementId(comment._id)}
            tabIndex={-1}
            className={comment._id === newComment ? 'comment is-new' : 'comment'}
          >
            <UserAvatar pic={comment.postedBy.pic} userName={comment.postedBy.userName} size={36} />
            <div className="comment-body">
              <div className="comment-head">
                <Link to={paths.profile(comment.postedBy._id)} className="comment-author">
                  {comment.postedBy.userName}
                </Link>
                {/* Comments cannot be edited yet: no editedAt, so never "edited". */}
                <RelativeTime className="secondary-text comment-date" dateTime={comment.createdAt} />
                {canDelete && (
                  <Button
                    type="text"
                    size="small"
                    danger
                    style={{ marginLeft: 'auto' }}
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={`Delete comment by ${comment.postedBy.userName}`}
                    loading={busy(remove.isPending && remove.variables === comment._id)}
                    onClick={() => confirmDelete(comment._id)}
                  />
                )}
              </div>
              <RenderedMarkdown html={comment.textHtml} className="comment-text" />
            </div>
          </li>
        );
      })}
      {hasMore && (
        <li className="comment-more">
          <Button
            loading={busy(more.isFetching)}
            onClick={() => {
              setFocusFrom(comments.length);
              void more.fetchNextPage();
            }}
          >
            Show more comments
          </Button>
        </li>
      )}
    </ul>
  );
}

function commentElementId(commentId: string): string {
  return `comment-${commentId}`;
}

/** A comment deleted among the first page shifts the next one into it: shown once. */
function withoutRepeats(comments: Comment[]): Comment[] {
  const seen = new Set<string>();
  return comments.filter((comment) => !seen.has(comment._id) && seen.add(comment._id));
}

/**
 * The id of the comment the viewer has posted on this thread since the list appeared, once it is
 * on screen: it is the newest comment, so the pages up to the end are loaded when the post's own
 * first page does not reach it. It is then scrolled into view (smoothly unless the viewer asks for
 * reduced motion), and posts.css highlights it.
 */
function useOwnNewComment(postId: string, userId: string | null, more: ReturnType<typeof useMoreComments>) {
  const queryClient = useQueryClient();
  const posted = useMutationState({
    filters: { mutationKey: postKeys.addComment(postId), status: 'success' },
    select: (mutation) => ({
      at: mutation.state.submittedAt,
      text: (mutation.state.variables as { text: string } | undefined)?.text,
    }),
  });
  const latest = posted.at(-1);
  // Comments posted before this list appeared (another visit to the page) are not news.
  const handled = useRef(latest?.at ?? 0);
  const [found, setFound] = useState<string | null>(null);
  const scrolled = useRef<string | null>(null);
  const { refetch, fetchNextPage } = more;

  useEffect(() => {
    if (!latest || latest.at <= handled.current || userId === null) return;
    handled.current = latest.at;
    let current = true;
    void (async () => {
      // The cache, not the props: the page renders the post deferred (post-detail.tsx).
      const post = queryClient.getQueryData<Post>(postKeys.detail(postId));
      if (!post) return;
      let thread = post.comments;
      if (post.commentsNextCursor) {
        let result = await refetch();
        while (current && !result.isError && result.data?.pages.at(-1)?.nextCursor) result = await fetchNextPage();
        thread = [...thread, ...(result.data?.pages.flatMap((page) => page.comments) ?? [])];
      }
      const mine = thread.findLast((comment) => comment.postedBy._id === userId && comment.text === latest.text);
      if (current && mine) setFound(mine._id);
    })();
    return () => {
      current = false;
    };
  }, [latest, userId, postId, queryClient, refetch, fetchNextPage]);

  useEffect(() => {
    if (found === null || scrolled.current === found) return;
    const element = document.getElementById(commentElementId(found));
    if (!element) return; // not rendered yet: the deferred post catches up and this runs again
    scrolled.current = found;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' });
  });

  return found;
}
