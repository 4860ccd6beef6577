import { LIMITS } from '@techit/contract/limits';
import { Button, ConfigProvider } from 'antd';
import useFormStyle from 'antd/es/form/style';
import { useColStyle, useRowStyle } from 'antd/es/grid/style';
import { useSharedStyle as useInputStyle } from 'antd/es/input/style';
import useTextAreaStyle from 'antd/es/input/style/textarea';
import { type ComponentType, type FormEvent, type RefObject, useContext, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { deferredImport } from '../../../lib/deferred-import';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import type { CommentDraft, CommentFormProps } from './comment-form';

/*
 * The comment form's libraries (react-hook-form, yup, Ant Design's Form and TextArea: about 60 KB
 * gzip, a third of the post page's code) are not needed to read a post. Until they have arrived the
 * page shows the same form as plain markup with the same classes, so nothing moves or changes when
 * the real one takes its place; they are fetched on the first sign of someone using the page, or
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
 * comment-form.tsx as Ant Design renders it (vertical Form, Form.Item, TextArea with a counter,
 * autoSize 2 to 8 rows), with the components' own style hooks for the same classes and themed
 * variables. The textarea's heights are what autoSize computes for the theme's 14 px text.
 */
function CommentFormStandIn({ inputId, boxRef, onSubmitRequest }: StandInProps) {
  const { user } = useSession();
  const [length, setLength] = useState(0);
  const [focused, setFocused] = useState(false);
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const form = getPrefixCls('form');
  const input = getPrefixCls('input');
  const [hashId, cssVarCls] = useFormStyle(form, `${form}-css-var`);
  useRowStyle(getPrefixCls('row'));
  useColStyle(getPrefixCls('col'));
  useInputStyle(input);
  useTextAreaStyle(input, `${input}-css-var`);

  const count = `${length} / ${LIMITS.commentMax}`;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // As the real form: a visitor is asked to log in, whatever the box holds.
    if (!user) notify.loginRequired('Please login to comment');
    else onSubmitRequest();
  };

  return (
    <form
      className={`${form} ${form}-vertical ${form}-hide-required-mark ${cssVarCls} ${form}-css-var ${hashId}`}
      onSubmit={onSubmit}
    >
      <div className={`${form}-item ${cssVarCls} ${form}-css-var ${hashId} ${form}-item-vertical`}>
        <div className={`ant-row ${form}-item-row ${hashId} ${cssVarCls}`}>
          <div className={`ant-col ${form}-item-label ${hashId} ${cssVarCls}`}>
            <label htmlFor={inputId} className={`${form}-item-required-mark-hidden`} title="Add a comment">
              Add a comment
            </label>
          </div>
          <div className={`ant-col ${form}-item-control ${hashId} ${cssVarCls}`}>
            <div className={`${form}-item-control-input`}>
              <div className={`${form}-item-control-input-content`}>
                <span
                  className={[
                    `${input}-affix-wrapper`,
                    `${input}-textarea-affix-wrapper`,
                    `${input}-textarea-show-count`,
                    hashId,
                    `${input}-outlined`,
                    focused && `${input}-affix-wrapper-focused`,
                    length > LIMITS.commentMax && `${input}-out-of-range`,
                    cssVarCls,
                    `${input}-css-var`,
                  ]
                    .filter(Boolean)
                    .join(' ')}
                  data-count={count}
                  style={{ height: 'auto' }}
                >
                  <textarea
                    ref={boxRef}
                    name="text"
                    id={inputId}
                    placeholder="Write a comment…"
                    className={`${input} ${hashId}`}
                    style={{ overflowY: 'hidden', resize: 'none', height: 52, minHeight: 52, maxHeight: 184 }}
                    onChange={(event) => setLength(event.target.value.length)}
                    onFocus={() => setFocused(true)}
                    onBlur={() => setFocused(false)}
                  />
                  <span className={`${input}-suffix`}>
                    <span className={`${input}-data-count`}>{count}</span>
                  </span>
                </span>
              </div>
            </div>
          </div>
        </div>
      </div>
      <div className="comment-form-actions">
        <Button type="primary" htmlType="submit">
          Post
        </Button>
      </div>
    </form>
  );
}
