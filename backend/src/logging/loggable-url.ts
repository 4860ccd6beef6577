import { remembered } from './remembered';

/** Query values worth seeing in a request line; every other value is replaced. */
const LOGGED_QUERY_KEYS = new Set(['page', 'limit', 'cursor', 'feed', 'userId']);

const SAFE_QUERY_KEY = /^[\w.-]{1,40}$/;
// What URLSearchParams leaves as is when decoding and encodeURIComponent when encoding.
const PLAIN_QUERY_VALUE = /^[\w.~-]*$/;

/** The path as sent, with the value of every query parameter outside LOGGED_QUERY_KEYS replaced. */
export function loggableUrl(url: string): string {
  return rememberedLoggableUrl(url);
}

const rememberedLoggableUrl = remembered((url) => {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  return plainLoggableUrl(url, mark) ?? decodedLoggableUrl(url, mark);
});

/**
 * The same line without decoding, for the usual query (`feed=for-you&page=1&limit=4`) whose keys
 * and kept values have nothing to decode: URLSearchParams was a third of the request line's cost.
 * Undefined when any part needs decoding.
 */
function plainLoggableUrl(url: string, mark: number): string | undefined {
  let shown = url.slice(0, mark + 1);
  let first = true;
  for (const pair of url.slice(mark + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? '' : pair.slice(equals + 1);
    if (!SAFE_QUERY_KEY.test(key)) return undefined;
    let shownValue = '[redacted]';
    if (LOGGED_QUERY_KEYS.has(key)) {
      if (!PLAIN_QUERY_VALUE.test(value)) return undefined;
      shownValue = value.slice(0, 200);
    }
    shown += `${first ? '' : '&'}${key}=${shownValue}`;
    first = false;
  }
  return shown;
}

function decodedLoggableUrl(url: string, mark: number): string {
  const query = new URLSearchParams(url.slice(mark + 1));
  const parts: string[] = [];
  for (const [key, value] of query) {
    const shownKey = SAFE_QUERY_KEY.test(key) ? key : '[key]';
    const shownValue = LOGGED_QUERY_KEYS.has(key) ? encodeURIComponent(value.slice(0, 200)) : '[redacted]';
    parts.push(`${shownKey}=${shownValue}`);
  }
  return `${url.slice(0, mark)}?${parts.join('&')}`;
}
