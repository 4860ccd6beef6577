import { useMutationState, useQueryClient } from '@tanstack/react-query';
import type { Comment, Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { commentElementId, paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { useSession } from '../../../lib/session';
import { useMoreComments } from '../api/get-more-comments';
import { useCommentThread } from '../api/get-thread';
import { postKeys } from '../api/post-keys';
import { CommentTree, useThreadDepth } from './comment-tree';
import { ancestorsOf, buildCommentTree } from './comment-tree-builder';

/**
 * The conversation as a tree (comment-tree.tsx): the first page the post carries, then the pages
 * asked for with "Show more comments" (oldest first, replies under what they answer). `threadId`:
 * only that comment and its replies (the "?thread=" view, GET …/comments?thread=), with the way
 * back to the whole conversation. A permalink (#comment-<id>) brings its comment into view and
 * highlights it, reading its subthread when the loaded pages do not hold it, and opening the
 * subthread view when it is nested deeper than the screen draws. A comment the viewer has just
 * posted is brought into view and highlighted, loading the pages before it if needed.
 */
export function CommentList({ post, threadId = null }: { post: Post; threadId?: string | null }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const maxDepth = useThreadDepth();
  const targetId = PERMALINK.exec(hash)?.[1] ?? null;
  // undefined: a copy from a list (a preview, not a first page) while the post's own loads.
  const after = post.commentsNextCursor ?? null;
  const more = useMoreComments(post._id, after ?? '');
  const loaded = after === null ? [] : (more.data?.pages.flatMap((page) => page.comments) ?? []);
  const paged = withoutRepeats([...post.comments, ...loaded]);
  // The permalink's comment, when the pages loaded do not hold it (nor does the subthread shown).
  const targetMissing = targetId !== null && threadId === null && !paged.some((comment) => comment._id === targetId);
  const thread = useCommentThread(post._id, threadId ?? (targetMissing ? targetId : null));
  const comments =
    threadId !== null ? (thread.data?.comments ?? []) : withoutRepeats([...paged, ...(thread.data?.comments ?? [])]);
  const nodes = buildCommentTree(comments, threadId);
  const hasMore = threadId === null && after !== null && (more.data ? more.hasNextPage : true);
  const newComment = useOwnNewComment(post._id, user?._id ?? null, more, threadId === null);
  // After "Show more comments" the keyboard goes on from the first comment it brought (the button
  // is gone after the last page, and focus would fall back to the page's start).
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const topCount = nodes.length;
  useEffect(() => {
    if (focusFrom === null || topCount <= focusFrom) return;
    listRef.current?.querySelectorAll<HTMLElement>(':scope > li.comment')[focusFrom]?.focus();
    setFocusFrom(null);
  }, [focusFrom, topCount]);

  // A permalink's comment nested deeper than this screen draws: its subthread's own view, from the
  // comment whose "Continue this thread" leads to it.
  const chain = targetId === null ? [] : ancestorsOf(comments, targetId);
  const below =
    threadId === null
      ? chain
      : chain.slice(
          Math.max(
            0,
            chain.findIndex((c) => c._id === threadId),
          ),
        );
  const continueFrom = below.length >= maxDepth ? below[maxDepth - 1] : undefined;
  useEffect(() => {
    if (continueFrom && targetId !== null) {
      void navigate(`${paths.postThread(post._id, continueFrom._id)}#${commentElementId(targetId)}`, { replace: true });
    }
  }, [continueFrom, targetId, post._id, navigate]);
  useScrollToTarget(continueFrom ? null : targetId, comments.length);

  const root = threadId === null ? null : comments.find((comment) => comment._id === threadId);
  const back = threadId !== null && (
    <nav className="comment-thread-nav" aria-label="This conversation">
      <Link to={paths.post(post._id)}>← Back to all comments</Link>
      {root?.parentId && <Link to={paths.postThread(post._id, root.parentId)}>Show the comment it answers</Link>}
    </nav>
  );

  if (threadId !== null && thread.isError) {
    return (
      <>
        {back}
        <span className="secondary-text">This comment doesn’t exist any more.</span>
      </>
    );
  }
  if (threadId !== null && !thread.data) return <span className="secondary-text">Loading the conversation…</span>;
  if (nodes.length === 0) {
    return <span className="secondary-text">No comments yet. Be the first!</span>;
  }

  return (
    <>
      {back}
      <ul className="plain-list comment-list" ref={listRef}>
        <CommentTree post={post} nodes={nodes} targetId={targetId} newId={newComment} />
        {hasMore && (
          <li className="comment-more">
            <Button
              loading={busy(more.isFetching)}
              onClick={() => {
                setFocusFrom(topCount);
                void more.fetchNextPage();
              }}
            >
              Show more comments
            </Button>
          </li>
        )}
      </ul>
    </>
  );
}

/** The permalink's part of the address: #comment-<id>. */
const PERMALINK = /^#comment-([0-9a-f]{24})$/;

/**
 * Scrolls the permalink's comment into view once it is drawn (again whenever the address names
 * another one), and puts the focus on it so the keyboard goes on from there.
 */
function useScrollToTarget(targetId: string | null, drawn: number) {
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (targetId === null || done.current === targetId) return;
    const element = document.getElementById(commentElementId(targetId));
    if (!element) return;
    done.current = targetId;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' });
  }, [targetId, drawn]);
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
function useOwnNewComment(
  postId: string,
  userId: string | null,
  more: ReturnType<typeof useMoreComments>,
  enabled: boolean,
) {
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
    if (!latest || latest.at <= handled.current || userId === null || !enabled) return;
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
  }, [latest, userId, postId, queryClient, refetch, fetchNextPage, enabled]);

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
