/**
 * The Markdown editor's formatting commands as pure text edits: given the source and the
 * selection, what to put where and what to select afterwards. The editor applies the edit as
 * typing would (components/markdown-editor.tsx), so undo and the form both see it.
 */
export type MarkdownCommand = 'bold' | 'italic' | 'code' | 'codeBlock' | 'link' | 'list' | 'quote';

export interface TextEdit {
  /** The range of the source replaced by `text`. */
  start: number;
  end: number;
  text: string;
  /** The selection once `text` is in (offsets in the new source). */
  selectStart: number;
  selectEnd: number;
}

interface Wrap {
  before: string;
  after: string;
  /** Typed in (and selected, to type over) when nothing was selected. */
  placeholder: string;
}

const WRAPS: Record<'bold' | 'italic' | 'code', Wrap> = {
  bold: { before: '**', after: '**', placeholder: 'bold text' },
  italic: { before: '_', after: '_', placeholder: 'italic text' },
  code: { before: '`', after: '`', placeholder: 'code' },
};

const LINE_PREFIXES: Record<'list' | 'quote', { prefix: string; placeholder: string }> = {
  list: { prefix: '- ', placeholder: 'List item' },
  quote: { prefix: '> ', placeholder: 'Quote' },
};

/**
 * A double click selects a word with the space after it (on some systems): `**word **` is not
 * bold in Markdown, so the spaces stay outside the marks.
 */
function trimmed(source: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (from < to && /\s/.test(source[from])) from += 1;
  while (to > from && /\s/.test(source[to - 1])) to -= 1;
  return [from, to];
}

function wrap(source: string, selStart: number, selEnd: number, { before, after, placeholder }: Wrap): TextEdit {
  const [start, end] = trimmed(source, selStart, selEnd);
  const inner = start === end ? placeholder : source.slice(start, end);
  return {
    start,
    end,
    text: `${before}${inner}${after}`,
    selectStart: start + before.length,
    selectEnd: start + before.length + inner.length,
  };
}

const looksLikeUrl = (text: string) => /^(https?:\/\/|mailto:|www\.)\S+$/i.test(text);

function link(source: string, selStart: number, selEnd: number): TextEdit {
  const [start, end] = trimmed(source, selStart, selEnd);
  const selected = source.slice(start, end);
  if (looksLikeUrl(selected)) {
    // A selected address becomes the link's target; its text is left to type.
    const label = 'link text';
    return { start, end, text: `[${label}](${selected})`, selectStart: start + 1, selectEnd: start + 1 + label.length };
  }
  const label = selected || 'link text';
  const url = 'https://';
  const text = `[${label}](${url})`;
  // With a label, the address is what is left to type; without one, the label.
  return selected
    ? { start, end, text, selectStart: start + label.length + 3, selectEnd: start + label.length + 3 + url.length }
    : { start, end, text, selectStart: start + 1, selectEnd: start + 1 + label.length };
}

/** A fenced block on lines of its own, around the selected lines or a placeholder. */
function codeBlock(source: string, selStart: number, selEnd: number): TextEdit {
  const inner = selStart === selEnd ? 'code' : source.slice(selStart, selEnd).replace(/\n$/, '');
  const lead = selStart > 0 && source[selStart - 1] !== '\n' ? '\n' : '';
  const trail = selEnd < source.length && source[selEnd] !== '\n' ? '\n' : '';
  const open = `${lead}\`\`\`\n`;
  return {
    start: selStart,
    end: selEnd,
    text: `${open}${inner}\n\`\`\`${trail}`,
    selectStart: selStart + open.length,
    selectEnd: selStart + open.length + inner.length,
  };
}

/** Every line the selection touches gets the prefix; an empty line gets it and a placeholder. */
function prefixLines(source: string, selStart: number, selEnd: number, kind: 'list' | 'quote'): TextEdit {
  const { prefix, placeholder } = LINE_PREFIXES[kind];
  const start = source.lastIndexOf('\n', selStart - 1) + 1;
  const lineEnd = source.indexOf('\n', selEnd > selStart && source[selEnd - 1] === '\n' ? selEnd - 1 : selEnd);
  const end = lineEnd === -1 ? source.length : lineEnd;
  const lines = source.slice(start, end);
  if (lines.trim() === '') {
    const text = `${prefix}${placeholder}`;
    return { start, end, text, selectStart: start + prefix.length, selectEnd: start + text.length };
  }
  const text = lines
    .split('\n')
    .map((line) => (line.trim() === '' ? line : `${prefix}${line}`))
    .join('\n');
  // A caret stays where it was in its line; a selection covers the whole new block.
  return selStart === selEnd
    ? { start, end, text, selectStart: selStart + prefix.length, selectEnd: selStart + prefix.length }
    : { start, end, text, selectStart: start, selectEnd: start + text.length };
}

export function markdownEdit(command: MarkdownCommand, source: string, selStart: number, selEnd: number): TextEdit {
  switch (command) {
    case 'bold':
    case 'italic':
    case 'code':
      return wrap(source, selStart, selEnd, WRAPS[command]);
    case 'link':
      return link(source, selStart, selEnd);
    case 'codeBlock':
      return codeBlock(source, selStart, selEnd);
    case 'list':
    case 'quote':
      return prefixLines(source, selStart, selEnd, command);
  }
}

/** The image's alternative text from its file name: "Screenshot 2026.png" → "Screenshot 2026". */
export function imageAltText(fileName: string): string {
  const alt = fileName
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[[\]\\\n\r]/g, ' ')
    .trim();
  return alt || 'image';
}
