import { DeleteOutlined, EditOutlined, LinkOutlined, MessageOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { THREAD_DEPTH } from '@techit/contract/limits';
import { Button } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { RelativeTime } from '../../../components/relative-time';
import { RenderedMarkdown } from '../../../components/rendered-markdown';
import { useRequireLogin } from '../../../components/use-require-login';
import { UserAvatar } from '../../../components/user-avatar';
import { commentElementId, commentPath, paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { confirm, notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { isRemovedPlaceholder, RemovedBadge, RemovedPlaceholder } from '../../../components/removed-content';
import { ReportButton } from '../../../components/report-button';
import { useDeleteComment } from '../api/delete-comment';
import type { CommentNode } from './comment-tree-builder';

// The reply and edit boxes need the form's libraries, as the comment box does (comment-box.tsx):
// fetched when a box is first opened, if the page has not fetched them already.
const InlineCommentForm = lazy(() =>
  import('./comment-form').then((module) => ({ default: module.InlineCommentForm })),
);

/** posts.css's phone width, where replies nest THREAD_DEPTH.phone levels deep. */
const PHONE = '(max-width: 575px)';

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** How many levels of a thread are drawn nested before "Continue this thread": 6 on large screens, 3 on phones. */
export function useThreadDepth(): number {
  const phone = useSyncExternalStore(subscribeToWidth, () => window.matchMedia(PHONE).matches);
  return phone ? THREAD_DEPTH.phone : THREAD_DEPTH.desktop;
}

interface CommentTreeProps {
  post: Post;
  nodes: CommentNode[];
  /** The comment a permalink points at: highlighted. */
  targetId: string | null;
  /** The comment the viewer has just posted: highlighted for a moment. */
  newId: string | null;
}

type OpenForm = { mode: 'reply' | 'edit'; commentId: string } | null;

/**
 * The comments as a tree: replies nested under what they answer, `useThreadDepth()` levels deep,
 * then "Continue this thread" (the subthread on a page of its own, ?thread=). Each comment is an
 * element `comment-<id>` (its permalink's target) with its actions: Reply, Link, and Edit and
 * Delete for whom they are allowed. Reply and Edit open a box in place, focused; closing it
 * puts the focus back on the button that opened it. A "[deleted]" placeholder keeps its place
 * for its replies, with no author and no actions (the API refuses a reply to it).
 */
export function CommentTree({ post, nodes, targetId, newId }: CommentTreeProps) {
  const maxDepth = useThreadDepth();
  const [open, setOpen] = useState<OpenForm>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [returnFocus, setReturnFocus] = useState(0);
  useEffect(() => {
    if (returnFocus === 0) return;
    const button = opener.current;
    if (button?.isConnected) button.focus();
  }, [returnFocus]);

  const context: TreeContext = {
    post,
    maxDepth,
    targetId,
    newId,
    open,
    openForm: (form, button) => {
      opener.current = button;
      setOpen(form);
    },
    closeForm: () => {
      setOpen(null);
      setReturnFocus((count) => count + 1);
    },
  };

  return (
    <>
      {nodes.map((node) => (
        <CommentItem key={node.comment._id} node={node} depth={0} context={context} />
      ))}
    </>
  );
}

interface TreeContext {
  post: Post;
  maxDepth: number;
  targetId: string | null;
  newId: string | null;
  open: OpenForm;
  openForm: (form: NonNullable<OpenForm>, button: HTMLElement) => void;
  closeForm: () => void;
}

function countReplies(node: CommentNode): number {
  return node.children.reduce((sum, child) => sum + 1 + countReplies(child), 0);
}

function CommentItem({ node, depth, context }: { node: CommentNode; depth: number; context: TreeContext }) {
  const { comment, children, orphan } = node;
  const { post, open, openForm, closeForm } = context;
  const { user, isAdmin } = useSession();
  const requireLogin = useRequireLogin();
  const navigate = useNavigate();
  const remove = useDeleteComment(post._id);
  const author = comment.postedBy.userName;
  const isAuthor = user !== null && user._id === comment.postedBy._id;
  const canDelete = !comment.deleted && user !== null && (isAdmin || isAuthor || user._id === post.postedBy._id);
  // A muted author's comment (decision 048) is folded until the reader asks to see it; its
  // replies stay in place below.
  const [shown, setShown] = useState(false);
  const folded = comment.muted === true && !comment.deleted && !shown;
  const editing = open?.mode === 'edit' && open.commentId === comment._id;
  const replying = open?.mode === 'reply' && open.commentId === comment._id;
  const permalink = commentPath(post._id, comment._id);
  // Removed by the moderators, as anyone but its author and the moderators get it: kept in place
  // for its replies, like a deleted comment, but saying so (docs/decisions/047-moderation.md).
  const removed = isRemovedPlaceholder(comment);
  const gone = comment.deleted || removed;

  // As for posts and notices: a real dialog, the safe choice focused. It closes either way; a
  // failure is told by the mutation's errorToast (lib/query-client.ts).
  const confirmDelete = () =>
    confirm({
      title: 'Are you sure you want to delete this comment?',
      content: children.length > 0 ? 'Its replies stay, under “[deleted]”.' : undefined,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      focusable: { autoFocusButton: 'cancel' },
      onOk: () =>
        remove.mutateAsync(comment._id).then(
          () => undefined,
          () => undefined,
        ),
    });

  const copyLink = () => {
    // Copied when the browser lets us (a secure page); the link opens it either way.
    void navigator.clipboard?.writeText(new URL(permalink, window.location.origin).href).then(
      () => notify.success('Link to the comment copied'),
      () => undefined,
    );
  };

  const classes = ['comment'];
  if (comment._id === context.newId) classes.push('is-new');
  if (comment._id === context.targetId) classes.push('is-target');
  if (gone) classes.push('is-deleted');
  if (folded) classes.push('is-muted');

  return (
    <li id={commentElementId(comment._id)} tabIndex={-1} className={classes.join(' ')}>
      {folded ? (
        <div className="comment-main comment-muted">
          <span className="comment-avatar-gap" aria-hidden />
          <span className="secondary-text">
            Comment by a muted user —{' '}
            <Button
              type="link"
              size="small"
              className="comment-show"
              aria-expanded={false}
              onClick={() => setShown(true)}
            >
              show
            </Button>
          </span>
        </div>
      ) : (
        <div className="comment-main">
          {gone ? (
            <span className="comment-avatar-gap" aria-hidden />
          ) : (
            <UserAvatar pic={comment.postedBy.pic} userName={author} size={36} />
          )}
          <div className="comment-body">
            <div className="comment-head">
              {comment.deleted ? (
                <span className="comment-deleted">[deleted]</span>
              ) : removed ? (
                <RemovedPlaceholder className="comment-removed" />
              ) : (
                <Link to={paths.profile(comment.postedBy._id)} className="comment-author">
                  {author}
                </Link>
              )}
              <RelativeTime
                className="secondary-text comment-date"
                dateTime={comment.createdAt}
                editedAt={gone ? null : comment.editedAt}
              />
              {comment.removed && !removed && <RemovedBadge />}
              {orphan && comment.parentId !== null && (
                <Link to={commentPath(post._id, comment.parentId)} className="comment-in-reply">
                  in reply to a comment
                </Link>
              )}
            </div>
            {editing ? (
              <Suspense fallback={<p className="secondary-text">Loading…</p>}>
                <InlineCommentForm postId={post._id} mode="edit" comment={comment} onClose={closeForm} />
              </Suspense>
            ) : (
              !gone && <RenderedMarkdown html={comment.textHtml} className="comment-text" />
            )}
            {!gone && !editing && (
              <div className="comment-actions">
                <Button
                  type="text"
                  size="small"
                  icon={<MessageOutlined aria-hidden />}
                  aria-label={`Reply to ${author}`}
                  aria-expanded={replying}
                  onClick={(event) => {
                    const button = event.currentTarget;
                    requireLogin('Please login to reply', () =>
                      openForm({ mode: 'reply', commentId: comment._id }, button),
                    );
                  }}
                >
                  Reply
                </Button>
                <Button
                  type="text"
                  size="small"
                  icon={<LinkOutlined aria-hidden />}
                  href={permalink}
                  aria-label="Link to this comment"
                  onClick={(event) => {
                    event.preventDefault();
                    copyLink();
                    void navigate(permalink, { replace: true, preventScrollReset: true });
                  }}
                >
                  Link
                </Button>
                <ReportButton
                  targetKind="comment"
                  targetId={comment._id}
                  authorId={comment.postedBy._id}
                  label={`comment by ${author}`}
                />
                {isAuthor && (
                  <Button
                    type="text"
                    size="small"
                    icon={<EditOutlined aria-hidden />}
                    aria-label="Edit your comment"
                    onClick={(event) => openForm({ mode: 'edit', commentId: comment._id }, event.currentTarget)}
                  >
                    Edit
                  </Button>
                )}
                {canDelete && (
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={`Delete comment by ${author}`}
                    loading={busy(remove.isPending)}
                    onClick={confirmDelete}
                  >
                    Delete
                  </Button>
                )}
              </div>
            )}
            {replying && (
              <Suspense fallback={<p className="secondary-text">Loading…</p>}>
                <InlineCommentForm postId={post._id} mode="reply" comment={comment} onClose={closeForm} />
              </Suspense>
            )}
          </div>
        </div>
      )}
      {children.length > 0 &&
        (depth + 1 < context.maxDepth ? (
          <ul className="plain-list comment-replies" aria-label={`Replies to ${author}`}>
            {children.map((child) => (
              <CommentItem key={child.comment._id} node={child} depth={depth + 1} context={context} />
            ))}
          </ul>
        ) : (
          <Link className="comment-continue" to={paths.postThread(post._id, comment._id)}>
            Continue this thread ({countReplies(node)} {countReplies(node) === 1 ? 'reply' : 'replies'}) →
          </Link>
        ))}
    </li>
  );
}
