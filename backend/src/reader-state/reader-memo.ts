import type { ReaderState } from './reader-state.repository';

/** The read cache's versions when a memo was made: any write through this instance changes one. */
export interface CacheStamp {
  version: number;
  personalVersion: number;
}

interface Memo extends ReaderState {
  stamp: CacheStamp;
  madeAt: number;
  /** The posts whose likes and bookmarks `liked` and `bookmarked` answer for. */
  known: Set<string>;
}

const MAX_READERS = 10_000;

/**
 * What one statement told about a reader (account, filters, likes and bookmarks among the posts
 * asked so far), kept until anything is written through this instance (the read cache's
 * versions change) and at most as long as a cached reply lives: a member reading page after page
 * costs no statement until something changes (docs/decisions/053-signed-in-read-cache.md).
 * A change made outside this process (`npm run admin`, another instance's write of someone else)
 * shows within the same lifetime as in the read cache; a reader's own write on another instance
 * is covered by OwnWriteMarks. Bounded: past 10,000 readers the oldest memo goes.
 */
export class ReaderMemo {
  private readonly memos = new Map<string, Memo>();

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The reader's state among these posts if known under this stamp; else the posts to ask about. */
  lookup(userId: string, stamp: CacheStamp, postIds: readonly string[]): ReaderState | readonly string[] {
    const memo = this.current(userId, stamp);
    if (!memo) return postIds;
    const unknown = postIds.filter((id) => !memo.known.has(id));
    return unknown.length === 0 ? memo : unknown;
  }

  /** What a statement read at `stamp` (taken before it ran) about `postIds`. */
  remember(userId: string, stamp: CacheStamp, postIds: readonly string[], state: ReaderState): ReaderState {
    const kept = this.memos.get(userId);
    // Both versions only grow: a statement that started before a write never replaces what was read after it.
    if (kept && (kept.stamp.version > stamp.version || kept.stamp.personalVersion > stamp.personalVersion))
      return state;
    let memo = this.current(userId, stamp);
    if (!memo) {
      memo = { ...state, liked: new Set(), bookmarked: new Set(), known: new Set(), stamp, madeAt: this.now() };
      this.memos.delete(userId);
      if (this.memos.size >= MAX_READERS) this.memos.delete(this.memos.keys().next().value as string);
      this.memos.set(userId, memo);
    }
    memo.account = state.account;
    memo.filters = state.filters;
    for (const id of postIds) memo.known.add(id);
    for (const id of state.liked) memo.liked.add(id);
    for (const id of state.bookmarked) memo.bookmarked.add(id);
    return memo;
  }

  private current(userId: string, stamp: CacheStamp): Memo | undefined {
    const memo = this.memos.get(userId);
    if (!memo) return undefined;
    const fresh =
      memo.stamp.version === stamp.version &&
      memo.stamp.personalVersion === stamp.personalVersion &&
      this.now() - memo.madeAt < this.lifetimeMs;
    if (fresh) return memo;
    this.memos.delete(userId);
    return undefined;
  }
}
