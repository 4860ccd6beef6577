import { FlagOutlined } from '@ant-design/icons';
import { yupResolver } from '@hookform/resolvers/yup';
import { useMutation } from '@tanstack/react-query';
import type { ReportReply, ReportRequest } from '@techit/contract/api-types';
import { REPORT_REASONS, type ReportReason, type ReportTargetKind } from '@techit/contract/enums';
import { MODERATION } from '@techit/contract/limits';
import { Button, Form, Input, Modal, Radio } from 'antd';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import * as yup from 'yup';
import { api } from '../lib/api-client';
import { busy } from '../lib/busy';
import { notify } from '../lib/notify';
import { everyFailure, hasStatus } from '../lib/query-client';
import { useSession } from '../lib/session';
import { useSubmitOnce } from '../lib/submit-once';
import { FormField } from './form-field';
import { useRequireLogin } from './use-require-login';
import './report-button.css';

const REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  'off-topic': 'Off-topic',
  other: 'Something else',
};

const NOUNS: Record<ReportTargetKind, string> = { post: 'post', comment: 'comment', notice: 'notice', user: 'user' };

interface ReportButtonProps {
  targetKind: ReportTargetKind;
  targetId: string;
  /** Whose it is: nobody reports their own content (the server refuses it too). */
  authorId: string;
  /** Names the target for screen readers: "Report post: <label>". */
  label: string;
  /** Show the word beside the flag (roomy places: the post page, a profile); else icon only. */
  withText?: boolean;
}

/**
 * "Report" on a post, comment, notice or profile (issue 20): a dialog with the reason and an
 * optional note, sent to POST /api/reports. A visitor gets the usual "Login Required!" toast;
 * nothing shows on the reader's own content. Shared by the posts, notices and users features.
 */
export function ReportButton({ targetKind, targetId, authorId, label, withText = false }: ReportButtonProps) {
  const { user } = useSession();
  const requireLogin = useRequireLogin();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  if (user?._id === authorId || authorId === '') return null;
  const noun = NOUNS[targetKind];
  return (
    <>
      <Button
        type="text"
        size="small"
        className="report-button"
        icon={<FlagOutlined aria-hidden />}
        aria-label={`Report ${noun}: ${label}`}
        title={`Report this ${noun}`}
        onClick={() => requireLogin(`Please login to report a ${noun}`, () => setOpen(true))}
      >
        {withText ? 'Report' : null}
      </Button>
      <Modal
        open={open}
        title={<span id={titleId}>{`Report this ${noun}`}</span>}
        aria-labelledby={titleId}
        onCancel={() => setOpen(false)}
        footer={null}
        closable={false}
        destroyOnHidden
        afterOpenChange={(opened) => {
          if (opened)
            document.querySelector<HTMLInputElement>(`[data-report-dialog="${titleId}"] input[type=radio]`)?.focus();
        }}
      >
        {open && (
          <ReportForm formKey={titleId} request={{ targetKind, targetId }} noun={noun} onClose={() => setOpen(false)} />
        )}
      </Modal>
    </>
  );
}

interface ReportValues {
  reason: ReportReason | '';
  note: string;
}

const schema = yup.object({
  reason: yup
    .string()
    .oneOf([...REPORT_REASONS, ''])
    .required()
    .test('chosen', 'Choose a reason', (value) => value !== ''),
  note: yup.string().max(MODERATION.noteMax, `The note must be at most ${MODERATION.noteMax} characters`).defined(),
});

function ReportForm({
  formKey,
  request,
  noun,
  onClose,
}: {
  formKey: string;
  request: Pick<ReportRequest, 'targetKind' | 'targetId'>;
  noun: string;
  onClose: () => void;
}) {
  const legendId = useId();
  const errorId = useId();
  const send = useMutation({
    mutationFn: (body: ReportRequest) => api<ReportReply>('/reports', { method: 'POST', body }),
    meta: { errorToast: { title: `Could not report the ${noun}`, withReason: everyFailure, except: hasStatus(401) } },
  });
  const { control, handleSubmit, formState } = useForm<ReportValues>({
    resolver: yupResolver(schema) as never,
    defaultValues: { reason: '', note: '' },
  });
  const submit = useSubmitOnce(
    handleSubmit(async ({ reason, note }) => {
      if (reason === '') return;
      try {
        await send.mutateAsync({ ...request, reason, ...(note.trim() ? { note: note.trim() } : {}) });
      } catch {
        return; // told by the mutation's errorToast (lib/query-client.ts); the dialog stays open
      }
      notify.success('Thanks — the moderators will take a look');
      onClose();
    }),
  );
  const reasonError = formState.errors.reason?.message;

  return (
    <Form layout="vertical" onFinish={() => void submit()} data-report-dialog={formKey}>
      <fieldset className="report-reasons" aria-describedby={reasonError ? errorId : undefined}>
        <legend id={legendId}>Why?</legend>
        <Controller
          control={control}
          name="reason"
          render={({ field }) => (
            <Radio.Group
              value={field.value}
              onChange={(event) => field.onChange(event.target.value as ReportReason)}
              className="report-reason-options"
              options={REPORT_REASONS.map((reason) => ({ value: reason, label: REASON_LABELS[reason] }))}
            />
          )}
        />
        {reasonError && (
          <div id={errorId} role="alert" className="report-reason-error">
            {reasonError}
          </div>
        )}
      </fieldset>
      <FormField
        control={control}
        name="note"
        label="Anything the moderators should know (optional)"
        max={MODERATION.noteMax}
      >
        {(input) => <Input.TextArea {...input} autoSize={{ minRows: 2, maxRows: 6 }} />}
      </FormField>
      <div className="report-dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
          Send report
        </Button>
      </div>
    </Form>
  );
}
