/**
 * The HTML a reply carries for a stored text. Reading never renders (docs/decisions/
 * 028-stored-html.md): a row written before HTML was stored, and not yet reached by
 * `npm run rerender`, carries its source escaped with its line breaks kept — what the text read
 * like before Markdown — instead of being rendered on the way out.
 */
export function storedHtml(html: string | null, source: string): string {
  return html ?? escapedText(source);
}

/** The source as plain text in HTML: every markup character escaped, each line break a `<br>`. */
export function escapedText(source: string): string {
  return source
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\r\n?|\n/g, '<br>\n');
}
