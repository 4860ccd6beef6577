import type { KeyboardEvent } from 'react';
import './markdown-tabs.css';

export type MarkdownMode = 'write' | 'preview';

const MODES: { mode: MarkdownMode; label: string }[] = [
  { mode: 'write', label: 'Write' },
  { mode: 'preview', label: 'Preview' },
];

/** The ids that tie the editor's tabs (on top of it, or in a form's actions row) to its panels. */
export const markdownTabId = (editorId: string, mode: MarkdownMode) => `${editorId}-${mode}-tab`;
export const markdownPanelId = (editorId: string, mode: MarkdownMode) => `${editorId}-${mode}-panel`;

interface MarkdownTabsProps {
  /** The id of the editor's textarea (FormField's input id). */
  editorId: string;
  mode: MarkdownMode;
  onChange: (mode: MarkdownMode) => void;
}

/**
 * The Write / Preview tabs of a Markdown editor: a real tab list (one Tab stop, the arrows, Home
 * and End switch tabs at once: there are two and switching costs nothing).
 */
/**
 * Each tab controls its panel (aria-controls), which is what tells two editors on a page apart;
 * the list's name stays short, so a field's label names its textarea only.
 */
export function MarkdownTabs({ editorId, mode, onChange }: MarkdownTabsProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    let next: MarkdownMode | null = null;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') next = mode === 'write' ? 'preview' : 'write';
    else if (event.key === 'Home') next = 'write';
    else if (event.key === 'End') next = 'preview';
    if (!next) return;
    event.preventDefault();
    onChange(next);
    document.getElementById(markdownTabId(editorId, next))?.focus();
  };
  return (
    <div role="tablist" aria-label="Write or preview" className="md-tabs">
      {MODES.map((tab) => (
        <button
          key={tab.mode}
          type="button"
          role="tab"
          id={markdownTabId(editorId, tab.mode)}
          aria-selected={tab.mode === mode}
          aria-controls={markdownPanelId(editorId, tab.mode)}
          tabIndex={tab.mode === mode ? 0 : -1}
          className={tab.mode === mode ? 'md-tab is-active' : 'md-tab'}
          onClick={() => onChange(tab.mode)}
          onKeyDown={onKeyDown}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/**
 * The tabs as they look, inert: the comment box's stand-in (posts' comment-box.tsx) draws them
 * before the editor's code has arrived, so nothing moves when the real ones take their place.
 */
export function MarkdownTabsLook() {
  return (
    <div className="md-tabs" aria-hidden>
      {MODES.map((tab) => (
        <span key={tab.mode} className={tab.mode === 'write' ? 'md-tab is-active' : 'md-tab'}>
          {tab.label}
        </span>
      ))}
    </div>
  );
}
