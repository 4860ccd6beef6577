/**
 * Dates as the interface shows them: how long ago ("5 min ago"), with the exact time a hover or
 * focus reveals. Plain functions of a given "now", so they are tested with a fixed clock
 * (e2e/tests/relative-time.test.ts), and none uses Intl: the first Intl formatter of a page loads
 * the locale data, 25 to 150 ms of blocked main thread measured here, in the middle of the first
 * render of every page with a post on it. Date's own toDateString() needs none.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Nov 24, 2024" in the reader's time zone, in English like the rest of the interface. */
export function formatDate(iso: string): string {
  const date = parse(iso);
  if (!date) return '';
  const [, month, day, year] = date.toDateString().split(' ');
  return `${month} ${Number(day)}, ${Number(year)}`;
}

/** "Nov 24, 2024, 14:05" in the reader's time zone: the exact time behind a relative one. */
export function formatExactTime(iso: string): string {
  const date = parse(iso);
  if (!date) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${formatDate(iso)}, ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * "just now", "5 min ago", "3 h ago", "3 d ago"; from a week on, the date ("Nov 24, 2024"). A
 * time slightly ahead of `now` (another clock) is "just now".
 */
export function formatRelativeTime(iso: string, now: number): string {
  const date = parse(iso);
  if (!date) return '';
  const ago = now - date.getTime();
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} d ago`;
  return formatDate(iso);
}
