/**
 * Characters XML 1.0 does not allow anywhere, not even escaped (§2.2): C0 controls but tab, line
 * feed and carriage return; U+FFFE and U+FFFF; and UTF-16 halves without their other half. A
 * stored title can hold them (the API keeps text as typed), so they are dropped, not escaped.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these control characters are what it removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The one way text enters the feeds' and sitemaps' XML, as element content or as an attribute
 * value: markup characters escaped, characters XML cannot carry removed. HTML (a post's rendered
 * body) goes in through this too, as text: never as CDATA, which is no escape (a body holding
 * `]]>` would end it early).
 */
export function xmlText(value: string): string {
  // Most text (every URL of a sitemap) has nothing to change: one test, no copies.
  if (!NEEDS_WORK.test(value)) return value;
  return value.replace(NOT_XML, '').replace(MARKUP, (char) => ENTITIES[char]);
}

const MARKUP = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// eslint-disable-next-line no-control-regex -- these control characters are what it looks for
const NEEDS_WORK = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
