import type { QueryClient } from '@tanstack/react-query';
import type { LikeReply, Post } from '@techit/contract/api-types';
import { useSyncExternalStore } from 'react';
import { updateCachedLikes } from './post-cache';
import { postKeys } from './post-keys';

/*
 * The viewer's own like, as they last asked for it, laid over whatever the cache says about the
 * post. The cache alone cannot hold it: a feed page requested before a like and answered after it
 * writes the list's pages back as they were when the page was asked for (TanStack Query builds
 * the next pages from the pages it had then), and the like vanished from the screen. So the heart
 * and the count are drawn from the cached post plus this overlay, which lasts until every post
 * request that was under way has ended; then the server's last answer goes into the cache over
 * whatever those requests brought, and the overlay is dropped once a card has drawn that state
 * from the cache alone (cards draw a deferred copy of the data, which may be a render behind).
 */

/** What a card draws from the overlay; a new object at each change (useSyncExternalStore compares them). */
export interface MyLikeShown {
  /** What the viewer's last click asked for (optimistic), or the server's answer once settled. */
  liked: boolean;
  /** Settled and in the cache, with no older post request left to undo it. */
  final: boolean;
}

interface MyLike {
  shown: MyLikeShown;
  /** Requests sent for this post and not yet answered (they run one after another). */
  pending: number;
  /** The server's last answer: it wins over requests that were under way when it came. */
  reply: LikeReply | null;
  viewerId: string;
}

const myLikes = new Map<string, MyLike>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(entry: MyLike, shown: MyLikeShown): void {
  entry.shown = shown;
  changed();
}

/** The viewer's like of `postId` as last asked for, while the server or the cache has not caught up. */
export function useMyLike(postId: string): MyLikeShown | undefined {
  return useSyncExternalStore(subscribe, () => myLikes.get(postId)?.shown);
}

/** The heart and the count to draw: the cached post with the viewer's own like laid over it. */
export function likeShown(post: Post, viewerId: string | null, myLike: MyLikeShown | undefined) {
  const cached = viewerId !== null && post.likes.includes(viewerId);
  const liked = myLike?.liked ?? cached;
  const count = Math.max(0, post.likesCount + (liked === cached ? 0 : liked ? 1 : -1));
  return { liked, cached, count };
}

/** A card has drawn the overlay's final state from the cached post alone: the overlay is done. */
export function myLikeDrawn(postId: string, cachedLiked: boolean): void {
  const entry = myLikes.get(postId);
  if (!entry || !entry.shown.final || entry.pending > 0 || entry.shown.liked !== cachedLiked) return;
  myLikes.delete(postId);
  changed();
}

/** A click: the heart changes now; the request (sent by the caller) follows the ones before it. */
export function likeAsked(postId: string, viewerId: string, liked: boolean): void {
  const entry = myLikes.get(postId);
  if (entry) {
    entry.pending += 1;
    show(entry, { liked, final: false });
  } else {
    myLikes.set(postId, { shown: { liked, final: false }, pending: 1, reply: null, viewerId });
    changed();
  }
}

/** The server answered one of the requests. */
export function likeAnswered(reply: LikeReply): void {
  const entry = myLikes.get(reply._id);
  if (entry) entry.reply = reply;
}

/**
 * A request ended, answered or failed. Once the last one has, the heart shows the server's last
 * answer (after a failure: the state before it, rolled back) and that answer goes into the cache,
 * now and again when the post requests under way at that moment have ended.
 */
export function likeSettled(queryClient: QueryClient, postId: string): void {
  const entry = myLikes.get(postId);
  if (!entry) return;
  entry.pending -= 1;
  if (entry.pending > 0) return;
  const { reply } = entry;
  if (!reply) {
    // Nothing got through: the cache still holds the server's state.
    myLikes.delete(postId);
    changed();
    return;
  }
  const liked = reply.likes.includes(entry.viewerId);
  updateCachedLikes(queryClient, reply);
  show(entry, { liked, final: false });
  let done = false;
  const settle = () => {
    if (done) return true;
    if (queryClient.isFetching({ queryKey: postKeys.all }) > 0) return false;
    done = true;
    // A newer click has taken this entry over: its own settling finishes it.
    if (myLikes.get(postId) !== entry || entry.pending > 0) return true;
    updateCachedLikes(queryClient, reply);
    show(entry, { liked, final: true });
    return true;
  };
  if (settle()) return;
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (settle()) unsubscribe();
  });
}
