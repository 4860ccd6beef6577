import { imageAltText, markdownEdit, type MarkdownCommand, type TextEdit } from '../../frontend/src/lib/markdown-edits';

/** The source after the edit, with the selection shown as [ ]. */
function after(command: MarkdownCommand, marked: string): string {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  const source = marked.replace('[', '').replace(']', '');
  const edit: TextEdit = markdownEdit(command, source, start, end);
  const result = source.slice(0, edit.start) + edit.text + source.slice(edit.end);
  return `${result.slice(0, edit.selectStart)}[${result.slice(edit.selectStart, edit.selectEnd)}]${result.slice(edit.selectEnd)}`;
}

describe('the Markdown editor’s formatting commands', () => {
  it('wraps the selection, spaces left outside the marks, and keeps it selected', () => {
    expect(after('bold', 'make [word ]strong')).toBe('make **[word]** strong');
    expect(after('italic', '[this]')).toBe('_[this]_');
    expect(after('code', 'run [npm start] now')).toBe('run `[npm start]` now');
  });

  it('types a selected placeholder when nothing is selected', () => {
    expect(after('bold', 'a []b')).toBe('a **[bold text]**b');
    expect(after('code', '[]')).toBe('`[code]`');
  });

  it('links the selected text to an address left to type, or a selected address to a text left to type', () => {
    expect(after('link', 'see [the docs]')).toBe('see [the docs]([https://])');
    expect(after('link', 'see [https://example.com]')).toBe('see [[link text]](https://example.com)');
    expect(after('link', '[]')).toBe('[[link text]](https://)');
  });

  it('puts a code block on lines of its own', () => {
    expect(after('codeBlock', 'text[]')).toBe('text\n```\n[code]\n```');
    expect(after('codeBlock', 'a\n[let x = 1;]\nb')).toBe('a\n```\n[let x = 1;]\n```\nb');
    expect(after('codeBlock', 'inline [x] here')).toBe('inline \n```\n[x]\n```\n here');
  });

  it('prefixes every selected line for a list or a quote, blank lines left alone', () => {
    expect(after('list', '[one\n\ntwo]')).toBe('[- one\n\n- two]');
    expect(after('quote', 'said:\n[wise words]')).toBe('said:\n[> wise words]');
    expect(after('list', 'ite[]m')).toBe('- ite[]m');
    expect(after('list', 'a\n[]')).toBe('a\n- [List item]');
  });

  it('names a picture after its file', () => {
    expect(imageAltText('Screenshot 2026-11-25.png')).toBe('Screenshot 2026-11-25');
    expect(imageAltText('a[b].webp')).toBe('a b');
    expect(imageAltText('.png')).toBe('image');
  });
});
