/** A run of a search snippet's text, marked when it is a matched word. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The text an escaped run stands for: character references decoded, nothing else read as markup. */
function unescape(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (reference, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : reference;
    }
    return NAMED[body.toLowerCase()] ?? reference;
  });
}

/**
 * A search snippet (the server's HTML whose only markup is `<mark>`, everything else escaped:
 * backend search-snippet.ts) as runs of plain text, for React to render as text. The page never
 * hands the server's string to the DOM as HTML, so a snippet that broke that rule would show its
 * tags as text instead of running them (decision 037).
 */
export function snippetParts(html: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const push = (escaped: string, marked: boolean) => {
    const text = unescape(escaped);
    if (text) parts.push({ text, marked });
  };
  let last = 0;
  for (const match of html.matchAll(/<mark>([\s\S]*?)<\/mark>/g)) {
    push(html.slice(last, match.index), false);
    push(match[1], true);
    last = match.index + match[0].length;
  }
  push(html.slice(last), false);
  return parts;
}
