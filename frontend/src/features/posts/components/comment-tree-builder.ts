import { type Comment, DELETED_AUTHOR } from '@techit/contract/api-types';

/** A comment and its replies, oldest first, as the page draws them. */
export interface CommentNode {
  comment: Comment;
  children: CommentNode[];
  /**
   * It answers a comment that is not among those given (a feed card's 3 newest, a page of a long
   * thread whose start is not loaded): drawn at the top with an "in reply to" link.
   */
  orphan: boolean;
}

/**
 * The API's flat list (oldest first, each comment naming its parentId) as a tree. Comments are
 * taken in their creation order whatever order they come in (the first page, pages loaded later,
 * a permalink's subthread), so a reply always sits after the comments that came before it.
 * `rootId`: only that comment and its replies (the "?thread=" view).
 */
export function buildCommentTree(comments: readonly Comment[], rootId: string | null = null): CommentNode[] {
  const ordered = [...new Map(comments.map((comment) => [comment._id, comment])).values()].sort(byCreation);
  const nodes = new Map<string, CommentNode>(
    ordered.map((comment) => [comment._id, { comment, children: [], orphan: false }]),
  );
  const top: CommentNode[] = [];
  for (const node of nodes.values()) {
    const { parentId, _id } = node.comment;
    const parent = parentId === null ? undefined : nodes.get(parentId);
    if (rootId !== null ? _id === rootId : !parent) {
      node.orphan = parentId !== null && rootId === null;
      top.push(node);
    } else parent?.children.push(node);
  }
  return top;
}

function byCreation(a: Comment, b: Comment): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}

/** The comment's ancestors among `comments`, root first (those loaded: the chain stops at a gap). */
export function ancestorsOf(comments: readonly Comment[], commentId: string): Comment[] {
  const byId = new Map(comments.map((comment) => [comment._id, comment]));
  const chain: Comment[] = [];
  let parentId = byId.get(commentId)?.parentId ?? null;
  while (parentId !== null) {
    const parent = byId.get(parentId);
    if (!parent || chain.includes(parent)) break;
    chain.unshift(parent);
    parentId = parent.parentId;
  }
  return chain;
}

/**
 * What deleting `commentId` does to the comments the page holds, as the server does it (decision
 * 038): one with replies becomes the "[deleted]" placeholder, one without goes, and so does every
 * placeholder above it left without replies. Applied to each cached list (pages beyond the first,
 * subthreads) with what all of them hold together.
 */
export function afterDeletion(all: readonly Comment[], commentId: string): (comment: Comment) => Comment | null {
  const childCount = new Map<string, number>();
  const byId = new Map(all.map((comment) => [comment._id, comment]));
  for (const comment of byId.values()) {
    if (comment.parentId !== null) childCount.set(comment.parentId, (childCount.get(comment.parentId) ?? 0) + 1);
  }
  const removed = new Set<string>();
  let placeholder: string | null = null;
  if ((childCount.get(commentId) ?? 0) > 0) placeholder = commentId;
  else {
    removed.add(commentId);
    let parent = byId.get(byId.get(commentId)?.parentId ?? '');
    while (parent?.deleted && (childCount.get(parent._id) ?? 0) <= 1) {
      removed.add(parent._id);
      parent = byId.get(parent.parentId ?? '');
    }
  }
  return (comment) => {
    if (removed.has(comment._id)) return null;
    if (comment._id === placeholder) {
      return { ...comment, deleted: true, text: '', textHtml: '', postedBy: DELETED_AUTHOR };
    }
    return comment;
  };
}
