import { BoldOutlined, CodeOutlined, ItalicOutlined, LinkOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { MarkdownKind } from '@techit/contract/enums';
import { Alert, Button, type GetRef, Input, Tooltip, theme } from 'antd';
import {
  type ClipboardEvent,
  type CSSProperties,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useRef,
  useState,
} from 'react';
import { type MarkdownCommand, imageAltText, markdownEdit, type TextEdit } from '../lib/markdown-edits';
import { useMarkdownPreview } from '../lib/markdown-preview';
import { everyFailure, hasStatus } from '../lib/query-client';
import { imageFileProblem, useUploadImage } from '../lib/upload-image';
import { type MarkdownMode, MarkdownTabs, markdownPanelId, markdownTabId } from './markdown-tabs';
import { useMentionSuggestions } from './mention-suggestions';
import { RenderedMarkdown } from './rendered-markdown';
import './markdown-editor.css';

/** Where the counter turns to a warning: the last tenth before the limit. */
const WARN_AT = 0.9;

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);
const MOD = IS_MAC ? '⌘' : 'Ctrl+';

type TextAreaRef = GetRef<typeof Input.TextArea>;

/**
 * The upload's failure toast (lib/query-client.ts), with the server's reason (too large, not a
 * picture after all…); a 401 is told by the api-client.
 */
const UPLOAD_FAILED = {
  title: 'Oops, there was an issue while uploading image!',
  withReason: everyFailure,
  except: hasStatus(401),
  key: 'markdown-image-upload',
};

function CodeBlockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M10 9l-3 3 3 3M14 9l3 3-3 3" />
    </svg>
  );
}

function QuoteIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden>
      <path d="M4 17h5l2-4V7H5v6h3zm9 0h5l2-4V7h-6v6h3z" />
    </svg>
  );
}

interface Tool {
  command: MarkdownCommand;
  label: string;
  /** The shortcut's letter, with Ctrl (⌘ on a Mac). */
  key?: string;
  icon: ReactNode;
}

const TOOLS: Tool[] = [
  { command: 'bold', label: 'Bold', key: 'B', icon: <BoldOutlined aria-hidden /> },
  { command: 'italic', label: 'Italic', key: 'I', icon: <ItalicOutlined aria-hidden /> },
  { command: 'code', label: 'Inline code', key: 'E', icon: <CodeOutlined aria-hidden /> },
  { command: 'codeBlock', label: 'Code block', icon: <CodeBlockIcon /> },
  { command: 'link', label: 'Link', key: 'K', icon: <LinkOutlined aria-hidden /> },
  { command: 'list', label: 'Bulleted list', icon: <UnorderedListOutlined aria-hidden /> },
  { command: 'quote', label: 'Quote', icon: <QuoteIcon /> },
];

const SHORTCUTS = new Map(TOOLS.filter((tool) => tool.key).map((tool) => [tool.key?.toLowerCase(), tool.command]));

/**
 * Puts `edit` into the textarea as typing would: through the browser's editing command, so it is
 * one step of the textarea's own undo and an `input` event tells React (and react-hook-form).
 * Where that command is missing, setRangeText and a dispatched `input` event do the same, without
 * the undo step.
 */
function applyEdit(textarea: HTMLTextAreaElement, edit: TextEdit, focus = true): void {
  if (focus) textarea.focus();
  let done = false;
  if (document.activeElement === textarea) {
    textarea.setSelectionRange(edit.start, edit.end);
    done =
      edit.text === ''
        ? edit.start === edit.end || document.execCommand('delete')
        : document.execCommand('insertText', false, edit.text);
  }
  if (!done) {
    textarea.setRangeText(edit.text, edit.start, edit.end);
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
  }
  if (focus) textarea.setSelectionRange(edit.selectStart, edit.selectEnd);
}

/** A position after a replaced range moves with the text; one inside it goes to its end. */
function shifted(position: number, start: number, end: number, length: number): number {
  if (position <= start) return position;
  if (position >= end) return position + length - (end - start);
  return start + length;
}

export interface MarkdownEditorProps {
  /** FormField's input props: react-hook-form's value, change, blur and ref, the id, ARIA and the counter. */
  id: string;
  name: string;
  value: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
  ref?: Ref<TextAreaRef>;
  disabled?: boolean;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
  count?: { show: true; max: number };
  /** The Markdown set, as POST /api/preview and the save render it. */
  kind: MarkdownKind;
  placeholder?: string;
  autoSize?: { minRows: number; maxRows: number };
  /** A pasted or dropped picture is uploaded and its Markdown inserted (only the post body's set has images). */
  images?: boolean;
  /** The formatting buttons (their shortcuts work either way). */
  toolbar?: boolean;
  /**
   * The Write / Preview tabs live outside (a compact form puts them beside its button): the form
   * then holds the mode and draws MarkdownTabs itself.
   */
  mode?: MarkdownMode;
  onModeChange?: (mode: MarkdownMode) => void;
}

/**
 * A Markdown field: Write / Preview tabs (the preview is the server's own rendering, so it is the
 * published page), a formatting toolbar and its shortcuts (Ctrl/⌘ + B, I, E, K), a counter
 * against the limit, `@` mention suggestions (mention-suggestions.tsx), and pictures pasted or dropped into the text uploaded and linked in place.
 * Used as a FormField's input, like any other field. The textarea stays mounted under Preview, so
 * its undo history, caret and an upload finishing meanwhile are kept.
 */
export function MarkdownEditor({
  id,
  name,
  value = '',
  onChange,
  onBlur,
  ref,
  disabled,
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
  'aria-required': required,
  count,
  kind,
  placeholder,
  autoSize = { minRows: 4, maxRows: 16 },
  images = false,
  toolbar = true,
  mode: givenMode,
  onModeChange,
}: MarkdownEditorProps) {
  const { token } = theme.useToken();
  const [ownMode, setOwnMode] = useState<MarkdownMode>('write');
  const mode = givenMode ?? ownMode;
  const setMode = onModeChange ?? setOwnMode;
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [writeHeight, setWriteHeight] = useState<number | null>(null);
  const upload = useUploadImage(UPLOAD_FAILED);
  const preview = useMarkdownPreview(value, kind, mode === 'preview');
  const problemId = `${id}-problem`;

  const colors = {
    '--md-warning': token.colorWarningText,
    '--md-error': token.colorErrorText,
    '--md-border': token.colorBorder,
    '--md-count': token.colorTextDescription,
  } as CSSProperties;

  const bindRef = (instance: TextAreaRef | null) => {
    textarea.current = instance?.resizableTextArea?.textArea ?? null;
    if (typeof ref === 'function') ref(instance);
    else if (ref) ref.current = instance;
  };

  const switchTo = (next: MarkdownMode) => {
    // The preview keeps the box's height, so the page does not jump under the reader.
    if (next === 'preview' && textarea.current) setWriteHeight(textarea.current.offsetHeight);
    setMode(next);
  };

  const run = (command: MarkdownCommand) => {
    const box = textarea.current;
    if (!box || disabled) return;
    applyEdit(box, markdownEdit(command, box.value, box.selectionStart, box.selectionEnd));
  };

  const mentions = useMentionSuggestions({
    value,
    textarea,
    disabled: disabled || mode !== 'write',
    apply: (edit) => {
      if (textarea.current) applyEdit(textarea.current, edit);
    },
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    mentions.onKeyDown(event);
    if (event.defaultPrevented) return;
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const command = SHORTCUTS.get(event.key.toLowerCase());
    if (!command) return;
    event.preventDefault();
    run(command);
  };

  /** Replaces the upload's placeholder (wherever it now is), keeping the writer's caret and focus. */
  const replacePlaceholder = (placeholderText: string, text: string) => {
    const box = textarea.current;
    if (!box) return;
    const start = box.value.indexOf(placeholderText);
    // Deleted by the writer meanwhile: nothing to replace.
    if (start === -1) return;
    const end = start + placeholderText.length;
    const focused = document.activeElement === box;
    const [selStart, selEnd] = [box.selectionStart, box.selectionEnd];
    applyEdit(
      box,
      {
        start,
        end,
        text,
        selectStart: shifted(selStart, start, end, text.length),
        selectEnd: shifted(selEnd, start, end, text.length),
      },
      focused,
    );
    if (focused) {
      box.setSelectionRange(shifted(selStart, start, end, text.length), shifted(selEnd, start, end, text.length));
    }
  };

  const uploadInto = async (file: File) => {
    const box = textarea.current;
    if (!box) return;
    const refused = imageFileProblem(file);
    if (refused) {
      setProblem(refused);
      return;
    }
    const alt = imageAltText(file.name);
    const placeholderText = `![Uploading ${alt}…]()`;
    const at = box.selectionEnd;
    applyEdit(box, {
      start: box.selectionStart,
      end: at,
      text: placeholderText,
      selectStart: box.selectionStart + placeholderText.length,
      selectEnd: box.selectionStart + placeholderText.length,
    });
    try {
      const url = await upload.mutateAsync(file);
      replacePlaceholder(placeholderText, `![${alt}](${url})`);
    } catch {
      // The toast says it failed, and why (UPLOAD_FAILED).
      replacePlaceholder(placeholderText, '');
    }
  };

  const takeFiles = (files: FileList | null | undefined): boolean => {
    const chosen = Array.from(files ?? []);
    if (chosen.length === 0) return false;
    if (!images) {
      setProblem(kind === 'post' ? null : 'Pictures can only go in a post’s body.');
      return true;
    }
    setProblem(null);
    for (const file of chosen) void uploadInto(file);
    return true;
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    // Text copied with a picture of itself (from an office program) is pasted as text.
    if (event.clipboardData.getData('text/plain') !== '') return;
    if (takeFiles(event.clipboardData.files)) event.preventDefault();
  };

  const onDragOver = (event: DragEvent<HTMLTextAreaElement>) => {
    if (event.dataTransfer.types.includes('Files')) event.preventDefault();
  };

  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    if (takeFiles(event.dataTransfer.files)) event.preventDefault();
  };

  const max = count?.max;
  const counter =
    max === undefined
      ? undefined
      : { max, show: ({ count: length }: { count: number }) => <Counter length={length} max={max} /> };

  const compact = givenMode !== undefined;
  const showBar = !compact || (toolbar && mode === 'write');
  const describedByAll = [describedBy, problem ? problemId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`md-editor is-${kind}${compact ? ' is-compact' : ''}`} style={colors}>
      {showBar && (
        <div className="md-editor-bar">
          {!compact && <MarkdownTabs editorId={id} mode={mode} onChange={switchTo} />}
          {toolbar && mode === 'write' && (
            <div role="toolbar" aria-label="Formatting" aria-controls={id} className="md-toolbar">
              {TOOLS.map((tool) => {
                const shortcut = tool.key ? `${MOD}${tool.key}` : undefined;
                return (
                  <Tooltip key={tool.command} title={shortcut ? `${tool.label} (${shortcut})` : tool.label}>
                    <Button
                      type="text"
                      size="small"
                      icon={tool.icon}
                      aria-label={tool.label}
                      aria-keyshortcuts={tool.key ? `${IS_MAC ? 'Meta' : 'Control'}+${tool.key}` : undefined}
                      disabled={disabled}
                      // The textarea keeps its selection: a click on a button would not move it,
                      // but it would take the focus first.
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => run(tool.command)}
                    />
                  </Tooltip>
                );
              })}
            </div>
          )}
        </div>
      )}
      <div
        role="tabpanel"
        id={markdownPanelId(id, 'write')}
        aria-labelledby={markdownTabId(id, 'write')}
        hidden={mode !== 'write'}
      >
        <Input.TextArea
          ref={bindRef}
          id={id}
          name={name}
          value={value}
          {...mentions.inputProps}
          onChange={(event) => {
            if (problem) setProblem(null);
            onChange(event.target.value);
            mentions.onChanged();
          }}
          onBlur={() => {
            mentions.onBlur();
            onBlur();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onDragOver={onDragOver}
          onDrop={onDrop}
          disabled={disabled}
          placeholder={placeholder}
          autoSize={autoSize}
          count={counter}
          aria-invalid={invalid}
          aria-required={required}
          aria-describedby={describedByAll}
          spellCheck
        />
        {mentions.popup}
      </div>
      <div
        role="tabpanel"
        id={markdownPanelId(id, 'preview')}
        aria-labelledby={markdownTabId(id, 'preview')}
        hidden={mode !== 'preview'}
        tabIndex={mode === 'preview' ? 0 : -1}
        className="md-preview"
        aria-busy={mode === 'preview' && preview.isFetching ? true : undefined}
        style={writeHeight ? { minHeight: writeHeight } : undefined}
      >
        {mode === 'preview' && <PreviewContent source={value} kind={kind} preview={preview} />}
      </div>
      {/* The counter stays under the preview too: the length is still the limit's business, and nothing moves. */}
      {mode === 'preview' && max !== undefined && (
        <div className="md-preview-count" aria-hidden>
          <Counter length={value.length} max={max} />
        </div>
      )}
      {problem && (
        <div id={problemId} role="alert" className="md-editor-problem">
          {problem}
        </div>
      )}
    </div>
  );
}

/** "length / max", turning to a warning near the limit and an error past it: under the text and the preview alike. */
function Counter({ length, max }: { length: number; max: number }) {
  const state = length > max ? ' is-over' : length >= max * WARN_AT ? ' is-near' : '';
  return (
    <span className={`md-count${state}`}>
      {length} / {max}
    </span>
  );
}

function PreviewContent({
  source,
  kind,
  preview,
}: {
  source: string;
  kind: MarkdownKind;
  preview: ReturnType<typeof useMarkdownPreview>;
}) {
  if (source.trim() === '') return <p className="md-preview-note">Nothing to preview</p>;
  if (preview.isError && !preview.isFetching) {
    return (
      <Alert
        type="error"
        showIcon
        title="The preview could not be loaded"
        description={preview.error.message}
        action={
          <Button size="small" onClick={() => void preview.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (preview.data === undefined) return <p className="md-preview-note">Loading preview…</p>;
  // The server's sanitised rendering (decision 025), shown by the component the published page
  // uses: the same HTML, typography, token colours and copy buttons.
  return <RenderedMarkdown html={preview.data} variant={kind === 'post' ? 'article' : 'summary'} />;
}
