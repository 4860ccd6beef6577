/** "averyveryverylongname" → "averyveryver…": the spec's rule for names (15/12) and emails (18/15). */
export function truncate(text: string, above: number, keep: number): string {
  return text.length > above ? `${text.slice(0, keep)}…` : text;
}
