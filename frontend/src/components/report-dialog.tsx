import { yupResolver } from '@hookform/resolvers/yup';
import { useMutation } from '@tanstack/react-query';
import type { ReportReply, ReportRequest } from '@techit/contract/api-types';
import { REPORT_REASONS, type ReportReason, type ReportTargetKind } from '@techit/contract/enums';
import { MODERATION } from '@techit/contract/limits';
import { Button, Form, Input, Modal, Radio } from 'antd';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import * as yup from 'yup';
import { api } from '../lib/api-client';
import { busy } from '../lib/busy';
import { notify } from '../lib/notify';
import { everyFailure, hasStatus } from '../lib/query-client';
import { useSubmitOnce } from '../lib/submit-once';
import { FormField } from './form-field';
import './report-button.css';

const REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  'off-topic': 'Off-topic',
  other: 'Something else',
};

interface ReportDialogProps {
  open: boolean;
  targetKind: ReportTargetKind;
  targetId: string;
  noun: string;
  onClose: () => void;
}

/**
 * The report dialog (report-button.tsx loads it on the first press): the reason as radio buttons,
 * an optional note, sent to POST /api/reports. Labelled by its title; focus starts on the reasons.
 */
export default function ReportDialog({ open, targetKind, targetId, noun, onClose }: ReportDialogProps) {
  const titleId = useId();
  return (
    <Modal
      open={open}
      title={<span id={titleId}>{`Report this ${noun}`}</span>}
      aria-labelledby={titleId}
      onCancel={onClose}
      footer={null}
      closable={false}
      destroyOnHidden
      afterOpenChange={(opened) => {
        if (opened)
          document.querySelector<HTMLInputElement>(`[data-report-dialog="${titleId}"] input[type=radio]`)?.focus();
      }}
    >
      {open && <ReportForm formKey={titleId} request={{ targetKind, targetId }} noun={noun} onClose={onClose} />}
    </Modal>
  );
}

interface ReportValues {
  reason: ReportReason | '';
  note: string;
}

const schema = yup.object({
  reason: yup.string().required('Choose a reason').oneOf(REPORT_REASONS, 'Choose a reason'),
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
              // One name: the arrow keys move between the reasons, as in any radio group.
              name={`${formKey}-reason`}
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
