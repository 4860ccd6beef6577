/**
 * A word diff for the edit history: which words an edit kept, removed and added. The plain
 * longest-common-subsequence table (words × words) is fine for a title or a description, but a
 * post's article holds up to 40,000 characters (some 13,000 words and spaces a side: a table of
 * 170 million cells). So the words both texts start and end with are set aside first (an edit
 * usually changes one place), and when what is left is still too big for the table, the texts are
 * compared line by line, and only the changed lines word by word (within the same budget; beyond
 * it a changed run of lines shows as removed and added whole). No library is needed.
 */

export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** The most LCS table cells one comparison may fill (4 MB of Uint32): fast on a phone. */
export const CELL_BUDGET = 1_000_000;

/**
 * What a diff cost, counted rather than timed (a test on a busy machine cannot time it): the LCS
 * table cells it filled, summed over every comparison.
 */
export interface DiffWork {
  cells: number;
}

/** Words and the white space between them, as separate tokens, so the parts join back exactly. */
function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

/** Lines, each with its line break, so they join back exactly. */
function lines(text: string): string[] {
  return text.split(/(?<=\n)/).filter((line) => line !== '');
}

/** `from` turned into `to`, part by part; neighbouring parts of one kind are merged. */
export function wordDiff(from: string, to: string, work: DiffWork = { cells: 0 }): DiffPart[] {
  const parts: DiffPart[] = [];
  diffUnits(tokens(from), tokens(to), parts, work, (a, b) => lineDiff(a.join(''), b.join(''), parts, work));
  return parts;
}

/** Changed lines, then the words of each changed run of lines. */
function lineDiff(from: string, to: string, out: DiffPart[], work: DiffWork): void {
  const byLine: DiffPart[] = [];
  diffUnits(lines(from), lines(to), byLine, work, (a, b) => {
    push(byLine, 'removed', a.join(''));
    push(byLine, 'added', b.join(''));
  });
  for (let k = 0; k < byLine.length; k += 1) {
    const part = byLine[k];
    const next = byLine[k + 1] as DiffPart | undefined;
    if (part.kind === 'removed' && next?.kind === 'added') {
      diffUnits(tokens(part.text), tokens(next.text), out, work, (a, b) => {
        push(out, 'removed', a.join(''));
        push(out, 'added', b.join(''));
      });
      k += 1;
    } else push(out, part.kind, part.text);
  }
}

/**
 * Diffs two lists of units into `out`: the common start and end as they are, the middle by the
 * LCS table when it fits CELL_BUDGET, else by `tooBig`.
 */
function diffUnits(
  a: string[],
  b: string[],
  out: DiffPart[],
  work: DiffWork,
  tooBig: (a: string[], b: string[]) => void,
): void {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  push(out, 'same', a.slice(0, start).join(''));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const cells = (midA.length + 1) * (midB.length + 1);
  if (cells <= CELL_BUDGET) {
    work.cells += cells;
    lcsDiff(midA, midB, out);
  } else tooBig(midA, midB);
  push(out, 'same', a.slice(endA).join(''));
}

function lcsDiff(a: string[], b: string[], out: DiffPart[]): void {
  const width = b.length + 1;
  // lcs[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push(out, 'same', a[i]);
      i += 1;
      j += 1;
    } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
      push(out, 'removed', a[i]);
      i += 1;
    } else {
      push(out, 'added', b[j]);
      j += 1;
    }
  }
  for (; i < a.length; i += 1) push(out, 'removed', a[i]);
  for (; j < b.length; j += 1) push(out, 'added', b[j]);
}

function push(parts: DiffPart[], kind: DiffPart['kind'], text: string): void {
  if (text === '') return;
  const last = parts[parts.length - 1] as DiffPart | undefined;
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}
