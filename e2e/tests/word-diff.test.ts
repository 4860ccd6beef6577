import { CELL_BUDGET, type DiffWork, wordDiff } from '../../frontend/src/lib/word-diff';

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

  /** Both texts back from the parts: what was there before (no added parts), and after (no removed ones). */
  function sides(parts: ReturnType<typeof wordDiff>): { before: string; after: string } {
    const join = (skip: 'removed' | 'added') =>
      parts
        .filter((part) => part.kind !== skip)
        .map((part) => part.text)
        .join('');
    return { before: join('added'), after: join('removed') };
  }

  /** An article of about `size` characters: numbered lines of words (the body limit is 40,000). */
  function article(size: number, word: (line: number, index: number) => string): string {
    const out: string[] = [];
    let length = 0;
    for (let line = 0; length < size; line += 1) {
      const text = `${Array.from({ length: 8 }, (_, index) => word(line, index)).join(' ')}\n`;
      out.push(text);
      length += text.length;
    }
    return out.join('').slice(0, size);
  }

  /** wordDiff, and the LCS table cells it filled (its work, counted: a busy machine cannot time it). */
  function countedDiff(from: string, to: string): { parts: ReturnType<typeof wordDiff>; cells: number } {
    const work: DiffWork = { cells: 0 };
    const parts = wordDiff(from, to, work);
    return { parts, cells: work.cells };
  }

  /** The cells the plain words × words table would fill: what took 35 to 55 s here before. */
  const plainTable = (from: string, to: string) =>
    (from.split(/(\s+)/).filter(Boolean).length + 1) * (to.split(/(\s+)/).filter(Boolean).length + 1);

  // A 40,000-character article is some 13,000 words and spaces a side: the plain table would be
  // 170 million cells (gigabytes, and 35 to 55 s here). Bounded, no comparison fills more than
  // CELL_BUDGET cells, and the whole diff a small multiple of it.
  it('diffs a 40,000-character article edited in a few places, word by word where it changed', () => {
    const from = article(40_000, (line, index) => `word${line}x${index}`);
    const to = from.replace('word10x3', 'changed').replace('word200x5 ', '').replace('word400x1', 'new words here');
    const { parts, cells } = countedDiff(from, to);
    // 153,683 cells here, against 66.9 million for the plain table.
    expect(cells).toBeLessThanOrEqual(CELL_BUDGET);
    expect(cells).toBeLessThan(plainTable(from, to) / 100);
    expect(sides(parts)).toEqual({ before: from, after: to });
    expect(parts.filter((part) => part.kind === 'removed').map((part) => part.text)).toEqual([
      'word10x3',
      'word200x5 ',
      'word400x1',
    ]);
  });

  it('diffs two unrelated 40,000-character articles, line by line when words are too many', () => {
    const from = article(40_000, (line, index) => `alpha${line}-${index}`);
    const to = article(40_000, (line, index) => (line % 50 === 0 ? `alpha${line}-${index}` : `beta${line}-${index}`));
    const { parts, cells } = countedDiff(from, to);
    // 5,974,846 cells here (each changed run of lines within the budget), against 60.7 million.
    expect(cells).toBeLessThanOrEqual(8 * CELL_BUDGET);
    expect(cells).toBeLessThan(plainTable(from, to) / 8);
    expect(sides(parts)).toEqual({ before: from, after: to });
    // The lines both share are kept as they are.
    expect(parts.some((part) => part.kind === 'same' && part.text.includes('alpha50-0'))).toBe(true);
  });
});
