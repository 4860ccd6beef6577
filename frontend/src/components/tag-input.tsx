import type { Tag } from '@techit/contract/api-types';
import { LIMITS } from '@techit/contract/limits';
import { normaliseTags } from '@techit/contract/tag-rules';
import { Select } from 'antd';
import { type KeyboardEvent, type ReactNode, type Ref, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTagSuggestions } from '../lib/tag-suggestions';
import './tag-input.css';

interface TagInputProps {
  id: string;
  name?: string;
  value: string[];
  onChange: (tags: string[]) => void;
  onBlur?: () => void;
  ref?: Ref<never>;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

function postsCount(tag: Tag): string {
  return tag.postsCount === 1 ? '1 post' : `${tag.postsCount} posts`;
}

/**
 * The library renders the suggestions as a listbox without a name (axe: aria-input-field-name;
 * a screen reader says "list" and nothing more): names every listbox of the popup each time the
 * popup renders, which is also when the library re-creates them.
 */
function NamedListbox({ name, children }: { name: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    box.current?.querySelectorAll('[role="listbox"]').forEach((list) => list.setAttribute('aria-label', name));
  });
  return <div ref={box}>{children}</div>;
}

/**
 * A post's tags, typed: Enter or a comma adds what is typed (or the suggestion picked with the
 * arrow keys), Backspace in the empty input removes the last one (a tag's × does too). Suggestions are the used tags
 * starting with what is typed, most used first (the most used of all before anything is typed).
 * Every addition goes through the contract's rule (normaliseTags: `#` and case dropped, duplicates
 * merged, at most LIMITS.postTagsMax): one it refuses is not added, and its sentence shows under
 * the input and is read out. Given FormField's input props, so the label and the form's own error
 * are tied to it like any field's.
 */
export function TagInput({
  id,
  value,
  onChange,
  onBlur,
  ref,
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
}: TagInputProps) {
  const [typed, setTyped] = useState('');
  const [focused, setFocused] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const hintId = useId();
  const refusalId = useId();
  const suggestions = useTagSuggestions(typed, focused);

  const change = (next: string[]) => {
    const checked = normaliseTags(next);
    if (!checked.ok) {
      setRefusal(checked.error);
      return;
    }
    setRefusal(null);
    setTyped('');
    const added = checked.tags.filter((tag) => !value.includes(tag));
    const removed = value.filter((tag) => !checked.tags.includes(tag));
    setAnnouncement(
      [...added.map((tag) => `Added tag ${tag}.`), ...removed.map((tag) => `Removed tag ${tag}.`)].join(' '),
    );
    onChange(checked.tags);
  };

  // No placeholder: the hint under the input says what to type, and the library's placeholder
  // is an element whose pale text fails the contrast check (axe) in both themes.
  const options = suggestions
    .filter((tag) => !value.includes(tag.name))
    .map((tag) => ({ value: tag.name, label: tag.name, count: postsCount(tag) }));

  // Backspace in the empty input takes the last tag back, here rather than in the library's
  // Select: that one ignores Backspace for 250 ms after any key pressed while text was typed (so a
  // held Backspace stops at the tags), which also swallows a quick press after Enter. A held key
  // (event.repeat) never removes a tag here, which keeps that protection.
  const onKeyDownCapture = (event: KeyboardEvent) => {
    if (event.key !== 'Backspace' || typed !== '' || value.length === 0) return;
    event.stopPropagation();
    event.preventDefault();
    if (!event.repeat) change(value.slice(0, -1));
  };

  return (
    <div className="tag-input" onKeyDownCapture={onKeyDownCapture}>
      <Select
        id={id}
        ref={ref}
        mode="tags"
        value={value}
        onChange={change}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          onBlur?.();
        }}
        showSearch={{
          searchValue: typed,
          onSearch: (text) => {
            setTyped(text);
            if (text) setRefusal(null);
          },
          filterOption: false,
        }}
        tokenSeparators={[',']}
        popupRender={(menu) => <NamedListbox name="Tag suggestions">{menu}</NamedListbox>}
        options={options}
        optionRender={(option) => (
          <span className="tag-input-option">
            <span>#{option.value}</span>
            <span className="tag-input-count">{option.data.count}</span>
          </span>
        )}
        labelRender={({ value: tag }) => `#${String(tag)}`}
        notFoundContent={null}
        status={invalid || refusal ? 'error' : undefined}
        aria-invalid={invalid || (refusal ? true : undefined)}
        aria-describedby={[refusal ? refusalId : null, hintId, describedBy].filter(Boolean).join(' ')}
      />
      <div id={hintId} className="tag-input-hint">
        Up to {LIMITS.postTagsMax} tags, each {LIMITS.postTagMax} letters, digits or dashes at most. Enter or a comma
        adds a tag, Backspace removes the last one.
      </div>
      {refusal && (
        <div id={refusalId} className="tag-input-refusal" role="alert">
          {refusal}
        </div>
      )}
      <span className="visually-hidden" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
