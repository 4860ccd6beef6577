import type { Author } from '@techit/contract/api-types';
import { type KeyboardEvent, type ReactNode, type RefObject, useId, useState } from 'react';
import type { TextEdit } from '../lib/markdown-edits';
import { typedMention } from '../lib/typed-mention';
import { useUserSuggestions } from '../lib/user-suggestions';
import { UserAvatar } from './user-avatar';
import './mention-suggestions.css';

interface MentionOptions {
  value: string;
  textarea: RefObject<HTMLTextAreaElement | null>;
  /** Puts the edit into the textarea as typing would (markdown-editor.tsx applyEdit). */
  apply: (edit: TextEdit) => void;
  disabled?: boolean;
}

/**
 * `@` and two letters in an editor suggest users whose name starts so (GET /api/users/suggest),
 * in a listbox under the box: ArrowDown / ArrowUp move through it, Enter or Tab inserts
 * `@userName `, Escape closes it (until the name typed changes), and a click picks one too. The
 * textarea stays focused and points at the active option (aria-activedescendant), as a combobox
 * does; the count of suggestions is read out. One for every editor (MarkdownEditor uses it).
 */
export function useMentionSuggestions({ value, textarea, apply, disabled }: MentionOptions) {
  const listId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const mention = caret === null || disabled ? null : typedMention(value, Math.min(caret, value.length));
  const key = mention ? `${mention.start}:${mention.prefix}` : null;
  const open = mention !== null && key !== dismissed;
  const { users, loading } = useUserSuggestions(open ? mention.prefix : null);
  const shown = open && users.length > 0;
  const activeIndex = Math.min(active, Math.max(users.length - 1, 0));
  const optionId = (index: number) => `${listId}-option-${index}`;

  const track = () => {
    const box = textarea.current;
    setCaret(box && document.activeElement === box ? box.selectionEnd : null);
  };

  const pick = (user: Author) => {
    if (!mention) return;
    const text = `@${user.userName} `;
    const after = mention.start + text.length;
    // A space already after the caret is not doubled.
    const end = value[mention.end] === ' ' ? mention.end + 1 : mention.end;
    apply({ start: mention.start, end, text, selectStart: after, selectEnd: after });
    setCaret(after);
    setActive(0);
  };

  /** Handles the keys that belong to the open list; the event is then used up (defaultPrevented). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!shown || event.ctrlKey || event.metaKey || event.altKey) return;
    const chosen = users[activeIndex];
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + users.length) % users.length);
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && chosen) {
      pick(chosen);
    } else if (event.key === 'Escape') {
      setDismissed(key);
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const inputProps = {
    onKeyUp: track,
    onClick: track,
    onFocus: track,
    onSelect: track,
    'aria-autocomplete': 'list' as const,
    'aria-controls': shown ? listId : undefined,
    'aria-activedescendant': shown ? optionId(activeIndex) : undefined,
  };

  const popup: ReactNode = (
    <>
      {shown && (
        <ul id={listId} role="listbox" aria-label="Suggested users" className="mention-suggestions">
          {users.map((user, index) => (
            <li
              key={user._id}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={index === activeIndex ? 'mention-option is-active' : 'mention-option'}
              // The textarea keeps the focus (and its caret): a click would take it first.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(user)}
            >
              <UserAvatar pic={user.pic} userName={user.userName} size={24} />
              <span>@{user.userName}</span>
            </li>
          ))}
        </ul>
      )}
      <span className="visually-hidden" aria-live="polite">
        {shown ? `${users.length} ${users.length === 1 ? 'user' : 'users'} suggested, arrow keys to choose` : ''}
        {open && !loading && users.length === 0 ? 'No users found' : ''}
      </span>
    </>
  );

  return { onKeyDown, onChanged: track, onBlur: () => setCaret(null), inputProps, popup };
}
