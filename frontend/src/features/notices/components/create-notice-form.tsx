import { CloseOutlined } from '@ant-design/icons';
import { yupResolver } from '@hookform/resolvers/yup';
import { LIMITS } from '@techit/contract/limits';
import { Button, Form, Input, Typography } from 'antd';
import { useRef } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import * as yup from 'yup';
import { FormField } from '../../../components/form-field';
import { MarkdownEditor } from '../../../components/markdown-editor';
import { requiredText } from '../../../lib/form-rules';
import { paths } from '../../../config/paths';
import { notify } from '../../../lib/notify';
import { useSubmitOnce } from '../../../lib/submit-once';
import { busy } from '../../../lib/busy';
import { useIdempotencyKey } from '../../../lib/idempotency-key';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useCreateNotice } from '../api/create-notice';
import { DraftStatusBar } from '../../../components/draft-status-bar';
import { useDraftAutosave } from '../../../lib/use-draft-autosave';
import { noticeFromDraft, noticeToDraft, type NoticeValues } from './notice-draft-fields';
import './notices.css';

const schema = yup.object({
  desc: requiredText('Description', LIMITS.noticeDescMax),
  links: yup
    .array(yup.object({ value: yup.string().defined() }))
    .max(LIMITS.noticeLinksMax, `A notice can have at most ${LIMITS.noticeLinksMax} links`)
    .required(),
});

const EMPTY: NoticeValues = { desc: '', links: [] };

/**
 * The create page's Notice form: a description (the small Markdown set, in the Markdown editor)
 * and up to three links (free text here; the server accepts only http(s) addresses and its
 * reason is shown when it refuses one).
 */
export function CreateNoticeForm() {
  const navigate = useNavigate();
  const addButton = useRef<HTMLButtonElement>(null);
  const idempotency = useIdempotencyKey();
  const creation = useCreateNotice();
  const form = useForm<NoticeValues>({ resolver: yupResolver(schema), defaultValues: EMPTY });
  const { control, handleSubmit, formState, setError } = form;
  const autosave = useDraftAutosave({
    form,
    kind: 'notice',
    empty: EMPTY,
    toDraft: noticeToDraft,
    fromDraft: noticeFromDraft,
  });
  const links = useFieldArray({ control, name: 'links' });
  const full = links.fields.length >= LIMITS.noticeLinksMax;

  const send = handleSubmit(async (values) => {
    const request = {
      desc: values.desc,
      tags: [],
      links: values.links.map((link) => link.value.trim()).filter((link) => link !== ''),
    };
    // The server deletes the draft once the notice is stored.
    const draftId = await autosave.beforePublish();
    try {
      await creation.mutateAsync({ ...request, draftId, idempotencyKey: idempotency.keyFor(request) });
      idempotency.done();
      autosave.afterPublish(true);
      notify.success('Created notice successfully');
      void navigate(paths.home);
    } catch (failure) {
      autosave.afterPublish(false);
      // Told by the mutation's errorToast (lib/query-client.ts), with the server's reason; the form
      // stays as it was, the description's sentence under it.
      showServerFieldErrors(failure, setError, { desc: 'desc' });
    }
  });
  // Post pressed twice creates one notice.
  const submit = useSubmitOnce(send);

  const removeLink = (index: number) => {
    links.remove(index);
    addButton.current?.focus();
  };

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Create a notice">
      <FormField control={control} name="desc" label="Description" required max={LIMITS.noticeDescMax}>
        {(input) => (
          <MarkdownEditor
            {...input}
            kind="notice"
            aria-required
            autoSize={{ minRows: 4, maxRows: 12 }}
            placeholder="What should the community know?"
          />
        )}
      </FormField>
      <fieldset className="notice-form-fieldset">
        <legend className="notice-form-legend">
          <Typography.Text>
            Links <Typography.Text type="secondary">(optional, up to {LIMITS.noticeLinksMax})</Typography.Text>
          </Typography.Text>
        </legend>
        <div className="notice-form-links">
          {links.fields.map((link, index) => (
            <div className="notice-form-link-row" key={link.id}>
              <FormField
                control={control}
                name={`links.${index}.value`}
                label={`Link ${index + 1}`}
                style={{ marginBottom: 0 }}
              >
                {(input) => <Input {...input} inputMode="url" placeholder="https://…" />}
              </FormField>
              <Button
                className="notice-form-link-remove"
                icon={<CloseOutlined aria-hidden />}
                aria-label={`Remove link ${index + 1}`}
                onClick={() => removeLink(index)}
              />
            </div>
          ))}
          <div>
            <Button ref={addButton} disabled={full} onClick={() => links.append({ value: '' }, { shouldFocus: true })}>
              Add Link +
            </Button>
          </div>
        </div>
      </fieldset>
      <DraftStatusBar autosave={autosave} />
      <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)} className="notice-form-submit">
        Post
      </Button>
    </Form>
  );
}
