import { yupResolver } from '@hookform/resolvers/yup';
import { LIMITS } from '@techit/contract/limits';
import type { Comment } from '@techit/contract/api-types';
import { Button, Form } from 'antd';
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import * as yup from 'yup';
import { FormField } from '../../../components/form-field';
import { MarkdownEditor } from '../../../components/markdown-editor';
import { type MarkdownMode, MarkdownTabs } from '../../../components/markdown-tabs';
import { notify } from '../../../lib/notify';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useSession } from '../../../lib/session';
import { useAddComment } from '../api/add-comment';
import { useEditComment } from '../api/edit-comment';
import { busy } from '../../../lib/busy';
import { useIdempotencyKey } from '../../../lib/idempotency-key';
import { useSubmitOnce } from '../../../lib/submit-once';

const schema = yup.object({
  text: yup
    .string()
    .trim()
    .required('Write a comment first')
    .max(LIMITS.commentMax, `A comment can be at most ${LIMITS.commentMax} characters`),
});

/** What was done with comment-box.tsx's stand-in before this form arrived. */
export interface CommentDraft {
  text: string;
  focused: boolean;
  selection: [number, number];
  /** A member pressed Post. */
  submit: boolean;
}

export interface CommentFormProps {
  postId: string;
  /** The textarea's id, so the post's comment icon can bring the user here. */
  inputId: string;
  draft?: CommentDraft;
}

/**
 * A labelled comment box and its 'Post' button; a visitor is asked to log in instead. The box is
 * the Markdown editor in its compact form: its shortcuts, and Write / Preview beside Post.
 */
export function CommentForm({ postId, inputId, draft }: CommentFormProps) {
  const { user } = useSession();
  const add = useAddComment(postId);
  const { control, handleSubmit, reset, formState, setError } = useForm({
    resolver: yupResolver(schema),
    defaultValues: { text: draft?.text ?? '' },
  });

  const idempotency = useIdempotencyKey();
  const [mode, setMode] = useState<MarkdownMode>('write');

  const send = handleSubmit(async ({ text }) => {
    try {
      await add.mutateAsync({ text, idempotencyKey: idempotency.keyFor(text) });
      idempotency.done();
      // Empty, not back to the defaults: those may hold the stand-in's text.
      reset({ text: '' });
      setMode('write');
    } catch (failure) {
      // Told by the mutation's errorToast (lib/query-client.ts), the text kept for another try; a
      // refused text is said under the box.
      showServerFieldErrors(failure, setError, { text: 'text' });
    }
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  const onFinish = () => {
    if (!user) notify.loginRequired('Please login to comment');
    else void submit();
  };

  // Taking over from the stand-in: the caret stays where it was (before the next paint, so the
  // focus is never seen to leave the box), and a pressed Post is sent.
  const tookOver = useRef(false);
  useLayoutEffect(() => {
    if (!draft || tookOver.current) return;
    tookOver.current = true;
    const box = document.getElementById(inputId);
    if (draft.focused && box instanceof HTMLTextAreaElement) {
      box.focus({ preventScroll: true });
      box.setSelectionRange(...draft.selection);
    }
    if (draft.submit) void submit();
  }, [draft, inputId, submit]);

  return (
    <Form layout="vertical" onFinish={onFinish} requiredMark={false} onKeyDown={sendOnCtrlEnter(onFinish)}>
      <FormField control={control} name="text" label="Add a comment" id={inputId} max={LIMITS.commentMax}>
        {(input) => (
          <MarkdownEditor
            {...input}
            kind="comment"
            toolbar={false}
            mode={mode}
            onModeChange={setMode}
            placeholder="Write a comment…"
            autoSize={{ minRows: 2, maxRows: 8 }}
          />
        )}
      </FormField>
      <div className="comment-form-actions">
        <MarkdownTabs editorId={inputId} mode={mode} onChange={setMode} />
        <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
          Post
        </Button>
      </div>
    </Form>
  );
}

/** Ctrl+Enter (⌘+Enter on a Mac) in a comment box sends it, as Post or Save would. */
function sendOnCtrlEnter(send: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
    event.preventDefault();
    send();
  };
}

export interface InlineCommentFormProps {
  postId: string;
  /** reply: a reply to `comment`; edit: `comment`'s new text (its author only). */
  mode: 'reply' | 'edit';
  comment: Comment;
  /** Sent and saved, or given up (Cancel, Escape): the thread closes the form and puts the focus back. */
  onClose: () => void;
}

/**
 * The reply or edit box opened in place under a comment (comment-tree.tsx): focused when it opens,
 * Ctrl/⌘+Enter sends, Escape (when no suggestion list is open) or Cancel closes it. A failure is
 * told by the mutation's errorToast and the text stays for another try.
 */
export function InlineCommentForm({ postId, mode, comment, onClose }: InlineCommentFormProps) {
  const inputId = useId();
  const add = useAddComment(postId);
  const edit = useEditComment(postId);
  const { control, handleSubmit, formState, setError } = useForm({
    resolver: yupResolver(schema),
    defaultValues: { text: mode === 'edit' ? comment.text : '' },
  });
  const idempotency = useIdempotencyKey();
  const [previewMode, setPreviewMode] = useState<MarkdownMode>('write');

  const send = handleSubmit(async ({ text }) => {
    try {
      if (mode === 'reply') {
        await add.mutateAsync({ text, idempotencyKey: idempotency.keyFor(text), parentId: comment._id });
        idempotency.done();
      } else await edit.mutateAsync({ commentId: comment._id, text });
      onClose();
    } catch (failure) {
      showServerFieldErrors(failure, setError, { text: 'text' });
    }
  });
  const submit = useSubmitOnce(send);

  useLayoutEffect(() => {
    const box = document.getElementById(inputId);
    if (!(box instanceof HTMLTextAreaElement)) return;
    box.focus({ preventScroll: true });
    box.setSelectionRange(box.value.length, box.value.length);
    box.scrollIntoView({ block: 'nearest' });
  }, [inputId]);

  const label = mode === 'reply' ? `Your reply to ${comment.postedBy.userName}` : 'Your comment';
  return (
    <Form
      layout="vertical"
      className="comment-inline-form"
      onFinish={() => void submit()}
      requiredMark={false}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          onClose();
        } else sendOnCtrlEnter(() => void submit())(event);
      }}
    >
      <FormField control={control} name="text" label={label} id={inputId} max={LIMITS.commentMax}>
        {(input) => (
          <MarkdownEditor
            {...input}
            kind="comment"
            toolbar={false}
            mode={previewMode}
            onModeChange={setPreviewMode}
            placeholder={mode === 'reply' ? 'Write a reply…' : undefined}
            autoSize={{ minRows: 2, maxRows: 8 }}
          />
        )}
      </FormField>
      <div className="comment-form-actions">
        <MarkdownTabs editorId={inputId} mode={previewMode} onChange={setPreviewMode} />
        <span className="comment-inline-buttons">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
            {mode === 'reply' ? 'Post reply' : 'Save'}
          </Button>
        </span>
      </div>
    </Form>
  );
}
