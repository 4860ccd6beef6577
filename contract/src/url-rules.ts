import { LIMITS } from './limits';

/**
 * Only http(s): a `javascript:` or `data:` link must never reach another user's browser. The
 * server refuses any other link and the web app renders no other as an anchor, so both ask this
 * one function (a security rule kept twice drifts apart).
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > LIMITS.linkMax || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * A link as a person types it (spec: links are free text): `example.com/x` gets `https://`, and
 * so does `//example.com/x`; anything that names a scheme keeps it, so `javascript:` or `data:`
 * still fails isHttpUrl. A colon followed by digits is a port (`localhost:3000`), not a scheme.
 */
export function withLinkScheme(text: string): string {
  if (text.startsWith('//')) return `https:${text}`;
  return /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i.test(text) ? text : `https://${text}`;
}

/**
 * Where a link goes, as a person reads it: its host without `www.` ("github.com"), shown beside
 * "Code", "Demo" or a notice's link so no link hides its destination. '' for what is not an
 * http(s) link (never rendered as one).
 */
export function linkHost(value: string): string {
  if (!isHttpUrl(value)) return '';
  return new URL(value).hostname.replace(/^www\./i, '');
}

/**
 * Whether a URL written in Markdown may become an `href` or `src`: http(s) and mailto, or a path
 * on this site (`/x`, `#x`, `?x`, `x/y`). Anything else (`javascript:`, `data:`, `vbscript:`, an
 * unknown scheme) stays text. The renderer asks after entities are decoded, so `&#106;avascript:`
 * is `javascript:` here; blanks and control characters are refused outright, since browsers drop
 * them inside a scheme (`java\tscript:` runs as `javascript:`).
 */
export function isMarkdownUrl(value: string): boolean {
  if (value.length === 0 || value.length > LIMITS.linkMax) return false;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u0020\u007f-\u009f]/.test(value)) return false;
  // A scheme is what comes before a colon that no '/', '?' or '#' precedes (as a browser reads it).
  const scheme = /^([^/?#]*):/.exec(value)?.[1];
  if (scheme === undefined) return true;
  return /^(https?|mailto)$/i.test(scheme);
}

/** A Markdown link that leaves this site (it names a scheme, or `//host`): it gets rel="ugc nofollow …". */
export function isExternalUrl(value: string): boolean {
  return /^[/\\]{2}/.test(value) || /^[^/?#]*:/.test(value);
}
