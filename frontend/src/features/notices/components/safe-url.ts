/** Only http(s) addresses become links: a `javascript:` or `data:` URL must never be clickable. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
