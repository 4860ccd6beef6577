import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import './rendered-markdown.css';

interface RenderedMarkdownProps {
  /** HTML rendered and sanitised by the server (backend/src/markdown, decision 025). */
  html: string;
  /** `article`: a post's body, full typography; `summary`: a card's desc, a comment, a notice. */
  variant?: 'article' | 'summary';
  className?: string;
  id?: string;
}

/** How long the copy button says "Copied" before it offers to copy again. */
const COPIED_FOR_MS = 2000;

/**
 * Markdown the server has rendered, put into the page as HTML, then enhanced: every code block
 * gets a "Copy" button, wide tables and code blocks scroll inside themselves (reachable by the
 * keyboard), headings get an anchor link, and links to this site's own pages (mentions, posts)
 * open inside the app instead of reloading it.
 */
export function RenderedMarkdown({ html, variant = 'summary', className, id }: RenderedMarkdownProps) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const [announcement, setAnnouncement] = useState('');

  const timers = useRef(new Map<HTMLButtonElement, number>());

  useEffect(() => {
    if (ref.current) enhance(ref.current);
  }, [html]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => window.clearTimeout(timer));
  }, []);

  const copy = (button: HTMLButtonElement) => {
    const code = button.closest('.code-block')?.querySelector('code');
    if (!code) return;
    const language = button.dataset.language;
    const done = (state: 'copied' | 'selected') => {
      setButtonState(button, state, language);
      setAnnouncement(state === 'copied' ? 'Code copied to the clipboard' : 'Code selected: press Ctrl+C to copy it');
      window.clearTimeout(timers.current.get(button));
      timers.current.set(
        button,
        window.setTimeout(() => {
          setButtonState(button, 'idle', language);
          setAnnouncement('');
          timers.current.delete(button);
        }, COPIED_FOR_MS),
      );
    };
    // No clipboard API (a page not served over https, an old browser) or the browser refused:
    // the code is selected instead, for the person to copy with their own keys.
    const select = () => {
      window.getSelection()?.selectAllChildren(code);
      done('selected');
    };
    // navigator.clipboard is missing on pages not served over https (the types say otherwise).
    if (!navigator.clipboard?.writeText) return select();
    navigator.clipboard.writeText(code.textContent ?? '').then(() => done('copied'), select);
  };

  // A click on a link to one of this site's pages, without a modifier key (which asks for a new
  // tab or window), is a route change inside the app: no reload, the session and caches kept.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const copyButton = (event.target as Element).closest<HTMLButtonElement>('button.code-copy-button');
    if (copyButton) return copy(copyButton);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    if (!link || !event.currentTarget.contains(link) || link.target) return;
    const href = link.getAttribute('href') ?? '';
    if (!isOwnPagePath(href)) return;
    event.preventDefault();
    void navigate(href);
  };

  const classes = ['markdown-body', `is-${variant}`, className].filter(Boolean).join(' ');
  return (
    <div id={id} className={classes} onClick={onClick}>
      <div
        ref={ref}
        className="markdown-content"
        // The one place the app turns a string into markup (e2e/tests/raw-html.test.ts allows this
        // file only). The string is the server's output, not the author's: markdown-it escapes every
        // tag the author typed (html: false), only our own rules write tags and attributes, and every
        // URL passed one allow-list (http, https, mailto, this site's paths). The XSS corpus in
        // backend/src/markdown/markdown-renderer.spec.ts holds the server to that.
        // Trimmed: the renderer ends every block with a line break, which would end the text too.
        dangerouslySetInnerHTML={{ __html: html.trim() }}
      />
      {/* Tells a screen reader what the copy button did. */}
      <span className="visually-hidden" role="status">
        {announcement}
      </span>
    </div>
  );
}

/** `/profile/…`, `/posts/…`: a path on this site, not `//host/…` (another site) nor `#section`. */
function isOwnPagePath(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/api/') && !href.startsWith('/uploads/');
}

/**
 * Adds the copy buttons, scroll boxes, heading anchors and checkbox names. Idempotent (an effect
 * may run twice on the same nodes); the buttons' clicks are handled by the component's one
 * delegated listener, so nothing here needs removing.
 */
function enhance(root: HTMLElement): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    if (!code || pre.parentElement?.classList.contains('code-block')) continue;
    const block = document.createElement('div');
    block.className = 'code-block';
    const bar = document.createElement('div');
    bar.className = 'code-block-bar';
    const language = /\blanguage-([\w+#-]+)/.exec(code.className)?.[1];
    const label = document.createElement('span');
    label.className = 'code-block-language';
    label.textContent = language ?? 'text';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'code-copy-button';
    if (language) button.dataset.language = language;
    setButtonState(button, 'idle', language);
    bar.append(label, button);
    pre.replaceWith(block);
    block.append(bar, pre);
    makeKeyboardScrollable(pre, `Code${language ? ` (${language})` : ''}`);
  }

  for (const table of Array.from(root.querySelectorAll('table'))) {
    if (table.parentElement?.classList.contains('table-scroll')) continue;
    const box = document.createElement('div');
    box.className = 'table-scroll';
    table.replaceWith(box);
    box.append(table);
    makeKeyboardScrollable(box, 'Table');
  }

  // GitHub's pattern: the anchor beside the heading, not in it (the heading's name stays its text).
  for (const heading of Array.from(
    root.querySelectorAll<HTMLElement>('h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]'),
  )) {
    if (heading.parentElement?.classList.contains('heading-with-anchor')) continue;
    const wrapper = document.createElement('div');
    wrapper.className = `heading-with-anchor is-${heading.tagName.toLowerCase()}`;
    const anchor = document.createElement('a');
    anchor.className = 'heading-anchor';
    anchor.href = `#${encodeURIComponent(heading.id)}`;
    anchor.setAttribute('aria-label', `Link to the section: ${heading.textContent ?? ''}`);
    anchor.textContent = '#';
    heading.replaceWith(wrapper);
    wrapper.append(heading, anchor);
  }

  // A task's checkbox is drawn by the server without a label: its item's text names it.
  for (const box of Array.from(root.querySelectorAll<HTMLInputElement>('input.task-list-item-checkbox'))) {
    const item = box.closest('li');
    box.setAttribute('aria-label', `${box.checked ? 'Done' : 'To do'}: ${item?.textContent?.trim() ?? ''}`);
  }
}

function setButtonState(button: HTMLButtonElement, state: 'idle' | 'copied' | 'selected', language?: string): void {
  button.dataset.state = state;
  button.textContent = state === 'idle' ? 'Copy' : state === 'copied' ? 'Copied' : 'Selected';
  const what = language ? `${language} code` : 'code';
  button.setAttribute(
    'aria-label',
    state === 'idle'
      ? `Copy ${what}`
      : state === 'copied'
        ? `Copied ${what}`
        : `Selected ${what}: press Ctrl+C to copy`,
  );
}

/**
 * A box that scrolls sideways (a long line of code, a wide table) takes focus, so the keyboard
 * can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable), with a name for what it is.
 */
function makeKeyboardScrollable(element: HTMLElement, name: string): void {
  element.tabIndex = 0;
  // A group, not a region: a post with ten code blocks should not add ten landmarks.
  element.setAttribute('role', 'group');
  element.setAttribute('aria-label', name);
}
