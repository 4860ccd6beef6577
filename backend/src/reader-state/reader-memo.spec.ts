import { ReaderMemo } from './reader-memo';
import type { ReaderState } from './reader-state.repository';

const account = { id: 'u1', role: 'user', user_name: 'ann', token_version: 0 };
const stateOf = (liked: string[], bookmarked: string[] = []): ReaderState => ({
  account,
  filters: null,
  liked: new Set(liked),
  bookmarked: new Set(bookmarked),
});

describe('ReaderMemo', () => {
  let now = 0;
  const stamp = { version: 1, personalVersion: 1 };
  const memo = () => new ReaderMemo(5_000, () => now);

  beforeEach(() => (now = 1_000));

  it('asks for every post at first, then only for the posts it has not seen', () => {
    const memos = memo();
    expect(memos.lookup('u1', stamp, ['p1', 'p2'])).toEqual(['p1', 'p2']);
    memos.remember('u1', stamp, ['p1', 'p2'], stateOf(['p1']));
    expect(memos.lookup('u1', stamp, ['p2', 'p3'])).toEqual(['p3']);
    memos.remember('u1', stamp, ['p3'], stateOf([], ['p3']));
    const known = memos.lookup('u1', stamp, ['p1', 'p2', 'p3']) as ReaderState;
    expect([...known.liked]).toEqual(['p1']);
    expect([...known.bookmarked]).toEqual(['p3']);
  });

  it('forgets everything once a write changes either version of the cache', () => {
    const memos = memo();
    memos.remember('u1', stamp, ['p1'], stateOf(['p1']));
    expect(memos.lookup('u1', { ...stamp, version: 2 }, ['p1'])).toEqual(['p1']);
    memos.remember('u1', stamp, ['p1'], stateOf(['p1']));
    expect(memos.lookup('u1', { ...stamp, personalVersion: 2 }, ['p1'])).toEqual(['p1']);
  });

  it('forgets a memo older than a cached reply may be, and keeps each reader apart', () => {
    const memos = memo();
    memos.remember('u1', stamp, ['p1'], stateOf(['p1']));
    expect(memos.lookup('u2', stamp, ['p1'])).toEqual(['p1']);
    now += 4_999;
    expect(Array.isArray(memos.lookup('u1', stamp, ['p1']))).toBe(false);
    now += 1;
    expect(memos.lookup('u1', stamp, ['p1'])).toEqual(['p1']);
  });

  it('does not keep what a statement read across a write', () => {
    const memos = memo();
    memos.remember('u1', stamp, ['p1'], stateOf(['p1']));
    // A statement that started before the write (old stamp) is not merged into a newer memo.
    memos.remember('u1', { ...stamp, version: 2 }, ['p2'], stateOf([]));
    memos.remember('u1', stamp, ['p3'], stateOf(['p3']));
    expect(memos.lookup('u1', { ...stamp, version: 2 }, ['p2', 'p3'])).toEqual(['p3']);
  });
});
