import { SearchOutlined } from '@ant-design/icons';
import { SEARCH } from '@techit/contract/limits';
import { normaliseTag } from '@techit/contract/tag-rules';
import { Button, Input, Select } from 'antd';
import { type FormEvent, useId, useState } from 'react';
import { useTagSuggestions } from '../../../lib/tag-suggestions';
import './bookmarks.css';

interface BookmarkFiltersProps {
  /** The search within the bookmarks, as the address has it ('' for none). */
  q: string;
  /** The tag the bookmarks are filtered by ('' for none). */
  tag: string;
  onChange: (next: { q: string; tag: string }) => void;
}

/**
 * The Bookmarks page's search box (the search's query language, within the saved posts; sent on
 * Enter or Search, cleared by its ×) and its tag filter (one tag, suggested as you type from the
 * used tags, most used first). Both live in the address (?q=…&tag=…), so a search can be linked
 * and Back undoes it.
 */
export function BookmarkFilters({ q, tag, onChange }: BookmarkFiltersProps) {
  const [typed, setTyped] = useState(q);
  // A search changed from elsewhere (Back, a link) shows in the box; typing alone does not reset it.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setTyped(q);
  }
  const [typedTag, setTypedTag] = useState('');
  const [tagFocused, setTagFocused] = useState(false);
  const suggestions = useTagSuggestions(typedTag, tagFocused);
  const searchId = useId();
  const tagId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ q: typed.trim(), tag });
  };

  const typedName = normaliseTag(typedTag);
  // Only tags that start with what is typed: the suggestions shown while the next ones load (and
  // an answer for an earlier prefix arriving late) would otherwise put another tag first, where
  // Enter picks it.
  const options = suggestions
    .filter((suggestion) => suggestion.name.startsWith(typedName))
    .map((suggestion) => ({ value: suggestion.name, label: `#${suggestion.name}` }));
  // What is typed is a choice too, so any tag can be filtered by, not only a suggested one.
  if (typedName && !options.some((option) => option.value === typedName)) {
    options.unshift({ value: typedName, label: `#${typedName}` });
  }

  return (
    <form role="search" aria-label="Search your bookmarks" className="bookmark-filters" onSubmit={submit}>
      <div className="bookmark-filter bookmark-filter-search">
        <label htmlFor={searchId}>Search your bookmarks</label>
        <div className="bookmark-search-row">
          <Input
            id={searchId}
            type="search"
            value={typed}
            maxLength={SEARCH.queryMax}
            allowClear
            placeholder="Words, “a phrase”, @author"
            onChange={(event) => {
              setTyped(event.target.value);
              // The × empties the box: the whole list comes back at once.
              if (event.target.value === '' && q !== '') onChange({ q: '', tag });
            }}
          />
          <Button htmlType="submit" icon={<SearchOutlined aria-hidden />}>
            Search
          </Button>
        </div>
      </div>
      <div className="bookmark-filter bookmark-filter-tag">
        <label htmlFor={tagId}>Tag</label>
        <Select
          id={tagId}
          showSearch={{ filterOption: false, onSearch: setTypedTag, searchValue: typedTag }}
          allowClear
          placeholder="Any tag"
          value={tag || undefined}
          options={options}
          onFocus={() => setTagFocused(true)}
          onBlur={() => setTagFocused(false)}
          onChange={(value: string | undefined) => {
            setTypedTag('');
            onChange({ q, tag: value ?? '' });
          }}
          notFoundContent={null}
          className="bookmark-tag-select"
        />
      </div>
    </form>
  );
}
