import { LIMITS } from '@techit/contract/limits';
import { Button } from 'antd';
import { type ComponentType, type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { MarkdownTabsLook } from '../../../components/markdown-tabs';
import { deferredImport } from '../../../lib/deferred-import';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import type { CommentDraft, CommentFormProps } from './comment-form';

/*
 * The comment form's libraries (react-hook-form, yup, Ant Design's Form and TextArea: about 60 KB
 * gzip, a third of the post page's code) are not needed to read a post. Until they have arrived the
 * page shows a stand-in drawn exactly like it, so nothing moves or changes when the real one takes
 * its place; they are fetched on the first sign of someone using the page, or
 * once the browser is idle after loading (lib/deferred-import.ts). Whatever the person has done
 * with the stand-in meanwhile (text, focus, a press of Post) carries over.
 */

const commentForm = deferredImport(() => import('./comment-form'));
let loadedForm: ComponentType<CommentFormProps> | null = null;
void commentForm.ready.then((module) => {
  loadedForm = module.CommentForm;
});

/** The labelled comment box and its 'Post' button: the real form once its code is here. */
export function CommentBox({ postId, inputId }: Omit<CommentFormProps, 'draft'>) {
  const [Form, setForm] = useState(() => loadedForm);
  const box = useRef<HTMLTextAreaElement>(null);
  const submitRequested = useRef(false);
  const draft = useRef<CommentDraft | undefined>(undefined);

  useEffect(() => {
    if (Form) return;
    let current = true;
    void commentForm.ready.then((module) => {
      if (!current) return;
      const textarea = box.current;
      if (textarea) {
        draft.current = {
          text: textarea.value,
          focused: document.activeElement === textarea,
          selection: [textarea.selectionStart, textarea.selectionEnd],
          submit: submitRequested.current,
        };
      }
      // At once: a key pressed between reading the box and replacing it would be lost.
      flushSync(() => setForm(() => module.CommentForm));
    });
    return () => {
      current = false;
    };
  }, [Form]);

  if (Form) return <Form postId={postId} inputId={inputId} draft={draft.current} />;
  return (
    <CommentFormStandIn
      inputId={inputId}
      boxRef={box}
      onSubmitRequest={() => {
        submitRequested.current = true;
        void commentForm.load().catch(() => undefined);
      }}
    />
  );
}

interface StandInProps {
  inputId: string;
  boxRef: RefObject<HTMLTextAreaElement | null>;
  /** A member pressed Post: the real form sends the text as soon as it is here. */
  onSubmitRequest: () => void;
}

/**
 * comment-form.tsx as Ant Design draws it (a vertical Form.Item, an outlined TextArea with a
 * counter, autoSize 2 to 8 rows), in plain markup that posts.css styles from the theme's variables:
 * no form, grid or input styles to download first. The heights are what autoSize computes for the
 * theme's 14 px text.
 */
function CommentFormStandIn({ inputId, boxRef, onSubmitRequest }: StandInProps) {
  const { user } = useSession();
  const [length, setLength] = useState(0);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // As the real form: a visitor is asked to log in, whatever the box holds.
    if (!user) notify.loginRequired('Please login to comment');
    else onSubmitRequest();
  };

  return (
    <form className="comment-stand-in" onSubmit={onSubmit}>
      <div className="comment-stand-in-item">
        <label htmlFor={inputId} className="comment-stand-in-label" title="Add a comment">
          Add a comment
        </label>
        <span className="comment-stand-in-box">
          <textarea
            ref={boxRef}
            name="text"
            id={inputId}
            placeholder="Write a comment…"
            onChange={(event) => setLength(event.target.value.length)}
          />
          <span className={length > LIMITS.commentMax ? 'comment-stand-in-count is-over' : 'comment-stand-in-count'}>
            {length} / {LIMITS.commentMax}
          </span>
        </span>
      </div>
      <div className="comment-form-actions">
        <MarkdownTabsLook />
        <Button type="primary" htmlType="submit">
          Post
        </Button>
      </div>
    </form>
  );
}
