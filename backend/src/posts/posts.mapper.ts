import {
  type Comment,
  DELETED_AUTHOR,
  type Post,
  REMOVED_AUTHOR,
  type PostRevision,
  type RevisionChanges,
  type TopPost,
} from '@techit/contract/api-types';
import type { Category } from '@techit/contract/enums';
import type { Role } from '@techit/contract/enums';
import { seesRemoved } from '../admin/admin-policy';
import { shownAuthor } from '../common/deleted-user';
import { storedHtml } from '../markdown/stored-html';
import type { CommentWithAuthor, PostWithAuthor, PostWithBody, RevisionWithEditor } from './posts.repository';

function author(row: { author_id: string; author_user_name: string; author_pic: string }) {
  return shownAuthor({ _id: row.author_id, userName: row.author_user_name, pic: row.author_pic });
}

/** Who reads: removed content is whole for its author and the moderators only (decision 047). */
export type Viewer = { id: string; role: Role } | null;

/** toComment for one reader, for `.map`. */
export function commentFor(viewer: Viewer): (row: CommentWithAuthor) => Comment {
  return (row) => toComment(row, viewer);
}

export function toComment(row: CommentWithAuthor, viewer: Viewer): Comment {
  const thread = { parentId: row.parent_id, editedAt: row.edited_at, createdAt: row.created_at };
  if (row.deleted) return { _id: row.id, text: '', textHtml: '', postedBy: DELETED_AUTHOR, deleted: true, ...thread };
  if (row.removed_at !== null && !seesRemoved(viewer, row.author_id)) {
    return { _id: row.id, text: '', textHtml: '', postedBy: REMOVED_AUTHOR, deleted: false, removed: true, ...thread };
  }
  return {
    ...(row.removed_at !== null ? { removed: true } : {}),
    _id: row.id,
    text: row.text,
    textHtml: storedHtml(row.text_html, row.text),
    postedBy: author(row),
    deleted: false,
    ...thread,
    // Only for the reader who mutes its author (docs/decisions/048-blocks-and-mutes.md); absent otherwise.
    ...(isTrue(row.muted) ? { muted: true } : {}),
  };
}

/** A boolean column as the drivers read it: SQLite 1/0, PostgreSQL true/false. */
function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** `bookmarked`: whether the reader saved it (false for a visitor); it never describes anyone else. */
export function toPost(
  row: PostWithAuthor,
  likes: string[],
  comments: Comment[],
  tags: string[],
  bookmarked: boolean,
): Post {
  return {
    _id: row.id,
    title: row.title,
    desc: row.description,
    descHtml: storedHtml(row.desc_html, row.description),
    photo: row.photo,
    category: row.category as Category | '',
    link1: row.link1,
    link2: row.link2,
    tags,
    likes,
    comments,
    likesCount: Number(row.likes_count),
    commentsCount: Number(row.comments_count),
    postedBy: author(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    editedAt: row.edited_at ?? null,
    bookmarked,
  };
}

/**
 * A post the moderators removed, as `viewer` reads it by id (lists never carry one): whole and
 * marked for its author and the moderators, else an empty placeholder with no author.
 */
export function asRemoved(post: Post, authorId: string, viewer: Viewer): Post {
  if (seesRemoved(viewer, authorId)) return { ...post, removed: true };
  return {
    ...post,
    removed: true,
    title: '',
    desc: '',
    descHtml: '',
    ...(post.body !== undefined ? { body: '', bodyHtml: '' } : {}),
    photo: '',
    link1: '',
    link2: '',
    tags: [],
    likes: [],
    comments: [],
    ...(post.commentsNextCursor !== undefined ? { commentsNextCursor: null } : {}),
    postedBy: REMOVED_AUTHOR,
  };
}

/** A reply carrying exactly one post: the list shape plus the article (see Post in the contract). */
export function toSinglePost(
  row: PostWithBody,
  likes: string[],
  comments: Comment[],
  tags: string[],
  bookmarked: boolean,
): Post {
  return {
    ...toPost(row, likes, comments, tags, bookmarked),
    body: row.body,
    bodyHtml: storedHtml(row.body_html, row.body),
  };
}

export function toRevision(row: RevisionWithEditor): PostRevision {
  return {
    _id: row.id,
    editedBy: shownAuthor({ _id: row.editor_id, userName: row.editor_user_name, pic: row.editor_pic }),
    createdAt: row.created_at,
    // Written only by the edit path from changedFields (post-changes.ts), so it is that shape.
    changes: JSON.parse(row.changes) as RevisionChanges,
  };
}

export function toTopPost(row: PostWithAuthor): TopPost {
  return {
    _id: row.id,
    title: row.title,
    postedBy: author(row),
    likesCount: Number(row.likes_count),
    commentsCount: Number(row.comments_count),
  };
}
