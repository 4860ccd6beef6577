/**
 * An `@` mention being typed just before the caret: the `@` where a mention may start (as the
 * server's renderer reads one: not inside a word, an email or a path) and the name's letters so
 * far. The same characters as USER_NAME_PATTERN.
 */
const TYPED_MENTION = /(^|[^A-Za-z0-9_.@/-])@([A-Za-z0-9_][A-Za-z0-9_.-]*)$/;

export interface TypedMention {
  /** Where the `@` is. */
  start: number;
  /** Where the caret is: the end of what is replaced. */
  end: number;
  prefix: string;
}

/** The mention typed just before `caret` in `text`, or null when the caret is not at the end of one. */
export function typedMention(text: string, caret: number): TypedMention | null {
  const match = TYPED_MENTION.exec(text.slice(0, caret));
  if (!match) return null;
  const prefix = match[2] ?? '';
  return { start: caret - prefix.length - 1, end: caret, prefix };
}
