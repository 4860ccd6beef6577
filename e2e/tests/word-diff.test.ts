import { wordDiff } from '../../frontend/src/lib/word-diff';

describe('the edit history word diff', () => {
  it('marks the words an edit removed and added, keeping the rest', () => {
    expect(wordDiff('The quick brown fox', 'The slow brown fox jumps')).toEqual([
      { kind: 'same', text: 'The ' },
      { kind: 'removed', text: 'quick' },
      { kind: 'added', text: 'slow' },
      { kind: 'same', text: ' brown fox' },
      { kind: 'added', text: ' jumps' },
    ]);
  });

  it('joins back into both texts exactly, white space and line breaks included', () => {
    const from = 'one  two\nthree four';
    const to = 'zero one two\nthree  five';
    const parts = wordDiff(from, to);
    const side = (kind: 'removed' | 'added') =>
      parts
        .filter((part) => part.kind !== kind)
        .map((part) => part.text)
        .join('');
    expect(side('added')).toBe(from);
    expect(side('removed')).toBe(to);
  });

  it('handles empty texts', () => {
    expect(wordDiff('', 'new words')).toEqual([{ kind: 'added', text: 'new words' }]);
    expect(wordDiff('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
    expect(wordDiff('', '')).toEqual([]);
  });
});
