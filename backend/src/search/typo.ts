/** At most one insertion, deletion, substitution or swap of neighbours turns a into b. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The known word one edit from `word` found in the most documents; null when none is. */
export function closestWord(word: string, known: { term: string; docs: number }[]): string | null {
  let best: { term: string; docs: number } | null = null;
  for (const candidate of known) {
    if (candidate.term === word || !withinOneEdit(word, candidate.term)) continue;
    if (!best || candidate.docs > best.docs || (candidate.docs === best.docs && candidate.term < best.term)) {
      best = candidate;
    }
  }
  return best?.term ?? null;
}
