/**
 * A word diff for the edit history: which words an edit kept, removed and added. Texts here are
 * short (a title ≤ 80, a description ≤ 400 characters), so the plain longest-common-subsequence
 * table (words × words) is small and no library is needed.
 */

export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Words and the white space between them, as separate tokens, so the parts join back exactly. */
function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

/** `from` turned into `to`, part by part; neighbouring parts of one kind are merged. */
export function wordDiff(from: string, to: string): DiffPart[] {
  const a = tokens(from);
  const b = tokens(to);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    const last = parts[parts.length - 1];
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]);
      i += 1;
      j += 1;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      push('removed', a[i]);
      i += 1;
    } else {
      push('added', b[j]);
      j += 1;
    }
  }
  for (; i < a.length; i += 1) push('removed', a[i]);
  for (; j < b.length; j += 1) push('added', b[j]);
  return parts;
}
