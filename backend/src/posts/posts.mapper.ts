import {
  type Comment,
  DELETED_AUTHOR,
  type Post,
  type PostRevision,
  type RevisionChanges,
  type TopPost,
} from '@techit/contract/api-types';
import type { Category } from '@techit/contract/enums';
import { shownAuthor } from '../common/deleted-user';
import { storedHtml } from '../markdown/stored-html';
import type { CommentWithAuthor, PostWithAuthor, PostWithBody, RevisionWithEditor } from './posts.repository';

function author(row: { author_id: string; author_user_name: string; author_pic: string }) {
  return shownAuthor({ _id: row.author_id, userName: row.author_user_name, pic: row.author_pic });
}

export function toComment(row: CommentWithAuthor): Comment {
  const thread = { parentId: row.parent_id, editedAt: row.edited_at, createdAt: row.created_at };
  if (row.deleted) return { _id: row.id, text: '', textHtml: '', postedBy: DELETED_AUTHOR, deleted: true, ...thread };
  return {
    _id: row.id,
    text: row.text,
    textHtml: storedHtml(row.text_html, row.text),
    postedBy: author(row),
    deleted: false,
    ...thread,
  };
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
