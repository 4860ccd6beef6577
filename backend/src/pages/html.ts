/**
 * Markup a page may carry as it is: built by `html` below (every value in it escaped), or stored by
 * the Markdown renderer (sanitised when it was written, docs/decisions/028-stored-html.md).
 */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The one escaping function of the server-rendered pages. It escapes the five characters that
 * matter in text and in quoted attribute values alike, so the same call is right in both places
 * and nobody has to choose.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template of markup: every interpolated value goes through escapeHtml unless it is SafeHtml,
 * so a page cannot forget to escape one.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1];
  });
  return new SafeHtml(out);
}

/** HTML the Markdown renderer stored (bodyHtml, descHtml, textHtml): sanitised when it was written. */
export function storedHtml(rendered: string): SafeHtml {
  return new SafeHtml(rendered);
}
