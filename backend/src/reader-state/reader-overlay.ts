import type { ReaderState } from './reader-state.repository';

/**
 * The replies the signed-in read cache serves (docs/decisions/053-signed-in-read-cache.md), by
 * Fastify route, and what in each depends on a reader without personal filters (no mutes, no
 * muted tags, no blocks; a member, not a moderator):
 *
 * - `posts` (`{ posts }` of a feed), `userPosts` (`{ userPosts }`), `post` (`{ post }`): each
 *   post's `bookmarked`, and in the compact view its `likes` ([the reader] or []). The full view
 *   lists every liker, the reader among them, the same for everyone.
 * - `profile` (`{ user }`): a reader of someone else's profile gets `viewer: { blocks, mutes }`,
 *   both false for a reader who blocks and mutes no one.
 * - `same` (top posts, a conversation): nothing; top posts carry no reader state, and comments
 *   carry `muted` only for a reader who mutes.
 *
 * Every other route is built by Nest for every signed-in request.
 */
export type ReplyShape = 'posts' | 'userPosts' | 'post' | 'profile' | 'same';

export const SHAPE_OF_ROUTE: Readonly<Record<string, ReplyShape>> = {
  '/api/posts': 'posts',
  '/api/posts/:id': 'post',
  '/api/posts/:id/comments': 'same',
  '/api/top-posts': 'same',
  '/api/userposts/:userId': 'userPosts',
  '/api/user/:id': 'profile',
};

/** What one cached reply needs for a reader's copy: its parsed form, once, and the posts in it. */
export interface ReaderReplyBase {
  shape: ReplyShape;
  compact: boolean;
  reply: Record<string, unknown>;
  postIds: string[];
  /** A profile as every member but its owner reads it, made at the first such read. */
  withViewer?: string;
}

interface PostLike {
  _id: string;
  likes: string[];
  bookmarked: boolean;
}

/**
 * A reply as every reader without personal filters shares it: the reader's likes (compact) and
 * bookmarks taken out, the profile's `viewer` dropped (kept with `keepViewer`: a reply kept for
 * one reader who mutes or blocks, whose viewer it is). Null when the reply cannot be shared:
 * something removed by the moderators is in it (whole for its author, a placeholder for others),
 * or it is not the shape the route gives.
 */
export function toSharedReply(
  text: string,
  shape: ReplyShape,
  compact: boolean,
  keepViewer = false,
): { text: string; base: ReaderReplyBase } | null {
  if (text.includes('"removed":')) return null;
  const reply = parseObject(text);
  if (!reply) return null;
  const posts = postsOf(reply, shape);
  if (!posts) return null;
  for (const post of posts) {
    if (compact) post.likes = [];
    post.bookmarked = false;
  }
  if (shape === 'profile' && !keepViewer) delete reply.viewer;
  return { text: JSON.stringify(reply), base: { shape, compact, reply, postIds: posts.map((post) => post._id) } };
}

/** A shared reply read from the cache (a visitor's, or one toSharedReply made): null if unusable. */
export function baseOf(text: string, shape: ReplyShape, compact: boolean): ReaderReplyBase | null {
  if (text.includes('"removed":')) return null;
  const reply = parseObject(text);
  const posts = reply && postsOf(reply, shape);
  return reply && posts ? { shape, compact, reply, postIds: posts.map((post) => post._id) } : null;
}

/**
 * The reader's own copy of a shared reply: null when it is byte for byte the shared one (the
 * reader likes and saved none of its posts, and it is no one else's profile).
 */
export function readerReply(base: ReaderReplyBase, readerId: string, state: ReaderState): string | null {
  // A reader who mutes or blocks reads a reply kept for them alone: its `viewer` is theirs already.
  if (base.shape === 'profile' && state.filters !== null) return null;
  if (base.shape === 'profile') {
    const user = base.reply.user as { _id?: unknown } | undefined;
    if (user?._id === readerId) return null;
    return (base.withViewer ??= JSON.stringify({ ...base.reply, viewer: { blocks: false, mutes: false } }));
  }
  if (state.liked.size === 0 && state.bookmarked.size === 0) return null;
  const own = (post: PostLike): PostLike => {
    const liked = base.compact && state.liked.has(post._id);
    const bookmarked = state.bookmarked.has(post._id);
    return liked || bookmarked ? { ...post, ...(liked ? { likes: [readerId] } : {}), bookmarked } : post;
  };
  switch (base.shape) {
    case 'posts':
    case 'userPosts': {
      const key = base.shape;
      return JSON.stringify({ ...base.reply, [key]: (base.reply[key] as PostLike[]).map(own) });
    }
    case 'post':
      return JSON.stringify({ ...base.reply, post: own(base.reply.post as PostLike) });
    case 'same':
      return null;
  }
}

function postsOf(reply: Record<string, unknown>, shape: ReplyShape): PostLike[] | null {
  switch (shape) {
    case 'posts':
    case 'userPosts': {
      const list = reply[shape];
      return Array.isArray(list) && list.every(isPost) ? list : null;
    }
    case 'post':
      return isPost(reply.post) ? [reply.post] : null;
    case 'profile':
      return typeof reply.user === 'object' && reply.user !== null ? [] : null;
    case 'same':
      return [];
  }
}

function isPost(value: unknown): value is PostLike {
  if (typeof value !== 'object' || value === null) return false;
  const post = value as Partial<PostLike>;
  return typeof post._id === 'string' && Array.isArray(post.likes) && typeof post.bookmarked === 'boolean';
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
