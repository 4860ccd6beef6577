import { formatExactTime, formatRelativeTime } from '../../frontend/src/lib/relative-time';

/** The web app's date words, with a fixed clock. */
describe('relative times (frontend/src/lib/relative-time.ts)', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const MIN = 60_000;

  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [-30_000, 'just now'],
    [MIN, '1 min ago'],
    [5 * MIN, '5 min ago'],
    [59 * MIN, '59 min ago'],
    [60 * MIN, '1 h ago'],
    [3 * 60 * MIN + 59 * MIN, '3 h ago'],
    [24 * 60 * MIN, '1 d ago'],
    [3 * 24 * 60 * MIN, '3 d ago'],
    [6 * 24 * 60 * MIN, '6 d ago'],
  ])('%p ms ago reads %p', (ms, words) => {
    expect(formatRelativeTime(ago(ms), now)).toBe(words);
  });

  it('from a week on, gives the date', () => {
    const iso = ago(8 * 24 * 60 * MIN);
    expect(formatRelativeTime(iso, now)).toMatch(/^Nov 1[67], 2026$/);
  });

  it('gives the exact local time behind it', () => {
    const local = new Date(2024, 10, 24, 9, 5);
    expect(formatExactTime(local.toISOString())).toBe('Nov 24, 2024, 09:05');
  });

  it('says nothing for what is no date', () => {
    expect(formatRelativeTime('soon', now)).toBe('');
    expect(formatExactTime('soon')).toBe('');
  });
});
