import { NumberOutlined, SearchOutlined } from '@ant-design/icons';
import type { SearchType } from '@techit/contract/api-types';
import { SEARCH } from '@techit/contract/limits';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { SUGGEST_FROM, suggestionInput, useSuggestions } from '../api/get-suggestions';
import './search.css';

/** Suggestions are asked for once typing pauses this long: not one request per keystroke. */
const DEBOUNCE_MS = 200;

interface Suggestion {
  key: string;
  href: string;
  kind: 'user' | 'tag';
  name: string;
  detail: string;
  pic?: string;
}

interface SearchBoxProps {
  /** The text it starts with (the results page: the query shown). */
  initialQuery?: string;
  /** The tab a search opens on (the results page keeps the one chosen). */
  type?: SearchType;
  /** 'nav': the left bar's small box; 'page': the results page's own. */
  variant: 'nav' | 'page';
  autoFocus?: boolean;
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The search box: Enter searches (/search?q=…), and from two characters it suggests people and
 * tags as an ARIA 1.2 combobox (the WAI-ARIA Authoring Practices' list autocomplete): focus stays
 * in the input, ArrowDown / ArrowUp move the highlighted suggestion (aria-activedescendant),
 * Enter opens it (or searches when none is highlighted), Escape closes the list (a second Escape
 * empties the box), Tab leaves. Built on plain elements rather than Ant Design's AutoComplete,
 * whose Select machinery the left bar (in every page's first paint) would have to carry.
 */
export function SearchBox({ initialQuery = '', type = 'posts', variant, autoFocus = false }: SearchBoxProps) {
  const navigate = useNavigate();
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const [text, setText] = useState(initialQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Nothing is asked for text nobody has touched (the results page's box opens holding its query).
  const [touched, setTouched] = useState(false);
  const input = suggestionInput(useDebounced(text, DEBOUNCE_MS));
  const { users, tags } = useSuggestions(touched ? input : { users: null, tagPrefix: null });

  const people: Suggestion[] = users.map((user) => ({
    key: `user-${user._id}`,
    href: paths.profile(user._id),
    kind: 'user',
    name: user.userName,
    detail: user.position,
    pic: user.pic,
  }));
  const tagItems: Suggestion[] = tags.map((tag) => ({
    key: `tag-${tag.name}`,
    href: paths.tag(tag.name),
    kind: 'tag',
    name: tag.name,
    detail: `${tag.postsCount} ${tag.postsCount === 1 ? 'post' : 'posts'}`,
  }));
  const options = text.trim().length >= SUGGEST_FROM ? [...people, ...tagItems] : [];
  const expanded = open && options.length > 0;
  const highlighted = expanded && active >= 0 && active < options.length ? options[active] : null;
  const optionId = (index: number) => `${id}-option-${index}`;

  // A new list (its first suggestions, or others for new text) starts with nothing highlighted.
  const optionKeys = options.map((option) => option.key).join(' ');
  useEffect(() => setActive(-1), [optionKeys]);

  const go = (href: string) => {
    setOpen(false);
    setActive(-1);
    // The left bar's box is ready for the next search; the page's shows what it searched.
    if (variant === 'nav') setText('');
    void navigate(href);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (highlighted) return go(highlighted.href);
    const q = text.trim();
    if (q) go(paths.search(q, type));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : count - 1);
        return;
      }
      // Past either end the highlight goes back to the text itself, as a browser's own list does.
      if (event.key === 'ArrowDown') setActive((current) => ((current + 2) % (count + 1)) - 1);
      else setActive((current) => (current === -1 ? count - 1 : current - 1));
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        event.preventDefault();
        setText('');
      }
    }
  };

  const status = expanded
    ? `${options.length} ${options.length === 1 ? 'suggestion' : 'suggestions'}. Use the up and down arrows to choose.`
    : '';
  const group = (label: string, items: Suggestion[], offset: number) =>
    items.length > 0 && (
      <div role="group" aria-labelledby={`${id}-${label}`} className="search-suggest-group">
        <div role="presentation" id={`${id}-${label}`} className="search-suggest-heading">
          {label}
        </div>
        {items.map((item, index) => (
          <div
            key={item.key}
            id={optionId(offset + index)}
            role="option"
            aria-selected={active === offset + index}
            className={active === offset + index ? 'search-suggest-option is-active' : 'search-suggest-option'}
            // Keeps focus in the box: the click then opens the suggestion.
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => setActive(offset + index)}
            onClick={() => go(item.href)}
          >
            {item.kind === 'user' ? (
              <span aria-hidden className="search-suggest-icon">
                <UserAvatar pic={item.pic} userName={item.name} size={28} />
              </span>
            ) : (
              <NumberOutlined aria-hidden className="search-suggest-icon search-suggest-tag-icon" />
            )}
            <span className="search-suggest-text">
              <span className="search-suggest-name">{item.name}</span>
              {item.detail && <span className="search-suggest-detail">{item.detail}</span>}
            </span>
          </div>
        ))}
      </div>
    );

  return (
    <form role="search" className={`search-box search-box-${variant}`} onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        Search
      </label>
      <div className="search-box-field">
        <SearchOutlined aria-hidden className="search-box-icon" />
        <input
          id={inputId}
          className="search-box-input"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={highlighted ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={SEARCH.queryMax}
          placeholder="Search TechIt"
          // The results page's box is focused when opened with nothing searched yet (the phone's entry).
          autoFocus={autoFocus}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setTouched(true);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
          }}
        />
      </div>
      <div id={listId} role="listbox" aria-label="Suggestions" className="search-suggest" hidden={!expanded}>
        {group('People', people, 0)}
        {group('Tags', tagItems, people.length)}
      </div>
      <div role="status" className="visually-hidden">
        {status}
      </div>
    </form>
  );
}
