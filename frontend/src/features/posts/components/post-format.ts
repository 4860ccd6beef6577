/** Only http(s) links become anchors: a stored `javascript:` URL must never run. */
export function isWebLink(url: string): boolean {
  return /^https?:\/\/\S+$/i.test(url);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

export function countLabel(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
