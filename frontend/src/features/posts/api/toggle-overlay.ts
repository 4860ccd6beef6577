import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { postKeys } from './post-keys';

/*
 * The viewer's own toggles of a post (the like, the bookmark), as they last asked for them, laid
 * over whatever the cache says about the post. The cache alone cannot hold them: a feed page
 * requested before a click and answered after it writes the list's pages back as they were when
 * the page was asked for (TanStack Query builds the next pages from the pages it had then), and
 * the click vanished from the screen. So the heart (or the bookmark) is drawn from the cached post
 * plus this overlay, which lasts until every post request that was under way has ended; then the
 * server's last answer goes into the cache over whatever those requests brought, and the overlay
 * is dropped once a card has drawn that state from the cache alone (cards draw a deferred copy of
 * the data, which may be a render behind). One mechanism for every toggle: each kind says only
 * how to read its state from the server's reply and how to write that reply into the cache.
 */

/** One kind of toggle of a post. */
export interface ToggleKind<Reply extends { _id: string }> {
  /** Keeps each kind's state apart (a post can be liked and bookmarked at once). */
  name: string;
  /** The viewer's state in the server's reply. */
  stateIn: (reply: Reply, viewerId: string) => boolean;
  /** Puts the server's reply into every cached copy of the post. */
  write: (queryClient: QueryClient, reply: Reply) => void;
}

/** What a control draws from the overlay; a new object at each change (useSyncExternalStore compares them). */
export interface ToggleShown {
  /** What the viewer's last click asked for (optimistic), or the server's answer once settled. */
  on: boolean;
  /** Settled and in the cache, with no older post request left to undo it. */
  final: boolean;
}

interface Entry {
  shown: ToggleShown;
  /** Requests sent for this post and not yet answered (they run one after another). */
  pending: number;
  /** The server's last answer: it wins over requests that were under way when it came. */
  reply: { _id: string } | null;
  viewerId: string;
}

type AnyKind = Pick<ToggleKind<never>, 'name'>;

const entries = new Map<string, Entry>();
/** Per kind, what every post of that kind shows now: a new map at each change of that kind. */
const snapshots = new Map<string, ReadonlyMap<string, ToggleShown>>();
const listeners = new Set<() => void>();
const NONE: ReadonlyMap<string, ToggleShown> = new Map();

const keyOf = (kind: AnyKind, postId: string) => `${kind.name}\u0000${postId}`;

function changed(kind: AnyKind): void {
  const prefix = `${kind.name}\u0000`;
  const shown = new Map<string, ToggleShown>();
  for (const [key, entry] of entries) if (key.startsWith(prefix)) shown.set(key.slice(prefix.length), entry.shown);
  snapshots.set(kind.name, shown);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(kind: AnyKind, entry: Entry, shown: ToggleShown): void {
  entry.shown = shown;
  changed(kind);
}

/** The viewer's toggle of `postId` as last asked for, while the server or the cache has not caught up. */
export function toggleShownOf(kind: AnyKind, postId: string): ToggleShown | undefined {
  return entries.get(keyOf(kind, postId))?.shown;
}

/** toggleShownOf, redrawn at each change. */
export function useToggleShown(kind: AnyKind, postId: string): ToggleShown | undefined {
  return useSyncExternalStore(subscribe, () => toggleShownOf(kind, postId));
}

/** Every post of this kind the overlay holds (e.g. to take unbookmarked posts out of the Bookmarks list at once). */
export function useToggleStates(kind: AnyKind): ReadonlyMap<string, ToggleShown> {
  return useSyncExternalStore(subscribe, () => snapshots.get(kind.name) ?? NONE);
}

/** A control has drawn the overlay's final state from the cached post alone: the overlay is done. */
export function toggleDrawn(kind: AnyKind, postId: string, cachedOn: boolean): void {
  const entry = entries.get(keyOf(kind, postId));
  if (!entry || !entry.shown.final || entry.pending > 0 || entry.shown.on !== cachedOn) return;
  entries.delete(keyOf(kind, postId));
  changed(kind);
}

/** A click: the control changes now; the request (sent by the caller) follows the ones before it. */
export function toggleAsked(kind: AnyKind, postId: string, viewerId: string, on: boolean): void {
  const entry = entries.get(keyOf(kind, postId));
  if (entry) {
    entry.pending += 1;
    show(kind, entry, { on, final: false });
  } else {
    entries.set(keyOf(kind, postId), { shown: { on, final: false }, pending: 1, reply: null, viewerId });
    changed(kind);
  }
}

/** The server answered one of the requests. */
export function toggleAnswered<Reply extends { _id: string }>(kind: ToggleKind<Reply>, reply: Reply): void {
  const entry = entries.get(keyOf(kind, reply._id));
  if (entry) entry.reply = reply;
}

/**
 * A request ended, answered or failed. Once the last one has, the control shows the server's last
 * answer (after a failure: the state before it, rolled back) and that answer goes into the cache,
 * now and again when the post requests under way at that moment have ended.
 */
export function toggleSettled<Reply extends { _id: string }>(
  kind: ToggleKind<Reply>,
  queryClient: QueryClient,
  postId: string,
): void {
  const key = keyOf(kind, postId);
  const entry = entries.get(key);
  if (!entry) return;
  entry.pending -= 1;
  if (entry.pending > 0) return;
  // Only this kind's replies are stored under its key.
  const reply = entry.reply as Reply | null;
  if (!reply) {
    // Nothing got through: the cache still holds the server's state.
    entries.delete(key);
    changed(kind);
    return;
  }
  const on = kind.stateIn(reply, entry.viewerId);
  kind.write(queryClient, reply);
  show(kind, entry, { on, final: false });
  let done = false;
  const settle = () => {
    if (done) return true;
    if (queryClient.isFetching({ queryKey: postKeys.all }) > 0) return false;
    done = true;
    // A newer click has taken this entry over: its own settling finishes it.
    if (entries.get(key) !== entry || entry.pending > 0) return true;
    kind.write(queryClient, reply);
    show(kind, entry, { on, final: true });
    return true;
  };
  if (settle()) return;
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (settle()) unsubscribe();
  });
}
