import { yupResolver } from '@hookform/resolvers/yup';
import type { ReportGroup } from '@techit/contract/api-types';
import type { ModerationAction, ReportReason, ReportStatus } from '@techit/contract/enums';
import { MODERATION } from '@techit/contract/limits';
import { Button, Empty, Form, Input, Radio, Spin } from 'antd';
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import * as yup from 'yup';
import { LoadMoreButton } from '../../../components/load-more-button';
import { FormField } from '../../../components/form-field';
import { RelativeTime } from '../../../components/relative-time';
import { Card } from '../../../components/surface-card';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { notify } from '../../../lib/notify';
import { useSubmitOnce } from '../../../lib/submit-once';
import { useReportQueue } from '../api/get-report-queue';
import { useResolveReports } from '../api/resolve-reports';
import { KIND_LABELS, REASON_LABELS, endOfDay, suspensionText, targetPath } from './moderation-labels';

/** The report queue: open or resolved targets, worst first, each with its one-click actions. */
export function ReportQueue() {
  const [status, setStatus] = useState<ReportStatus>('open');
  const queue = useReportQueue(status);
  const groups = queue.data?.pages.flatMap((page) => page.reports) ?? [];
  return (
    <div className="moderation-section">
      <Radio.Group
        aria-label="Which reports"
        optionType="button"
        value={status}
        onChange={(event) => setStatus(event.target.value as ReportStatus)}
        options={[
          { value: 'open', label: 'Open' },
          { value: 'resolved', label: 'Resolved' },
        ]}
      />
      {queue.isPending ? (
        <Spin className="moderation-loading" />
      ) : groups.length === 0 ? (
        <Empty description={status === 'open' ? 'No open reports: all clear' : 'No resolved reports yet'} />
      ) : (
        <ul
          className="plain-list moderation-cards"
          aria-label={status === 'open' ? 'Open reports' : 'Resolved reports'}
        >
          {groups.map((group) => (
            <li key={`${group.targetKind}:${group.targetId}`}>
              <ReportGroupCard group={group} />
            </li>
          ))}
        </ul>
      )}
      <LoadMoreButton pages={queue} className="moderation-more" />
    </div>
  );
}

function ReportGroupCard({ group }: { group: ReportGroup }) {
  const headingId = useId();
  const { target } = group;
  const href = targetPath(group.targetKind, group.targetId, {
    postId: target.postId,
    authorId: target.author?._id,
  });
  // A reported user is named by the heading itself (their name, their profile), not "by" themselves.
  const reportedUser = group.targetKind === 'user' && target.excerpt !== null ? target.author : null;
  const excerpt =
    target.excerpt === null
      ? '(deleted since it was reported)'
      : reportedUser
        ? reportedUser.userName
        : target.excerpt || `(${KIND_LABELS[group.targetKind].toLowerCase()} without text)`;
  return (
    <Card className="report-group">
      <article aria-labelledby={headingId}>
        <header className="report-group-header">
          <span className="report-group-kind">{KIND_LABELS[group.targetKind]}</span>
          <span className="report-group-count">
            {group.count} {group.count === 1 ? 'report' : 'reports'}
          </span>
          {target.removed && <span className="report-group-flag">removed</span>}
          {target.suspendedUntil && (
            <span className="report-group-flag">author suspended {suspensionText(target.suspendedUntil)}</span>
          )}
        </header>
        <h3 id={headingId} className="report-group-excerpt">
          {href && target.excerpt !== null ? <Link to={href}>{excerpt}</Link> : excerpt}
        </h3>
        {target.author && !reportedUser && (
          <p className="report-group-author">
            by{' '}
            <Link to={paths.profile(target.author._id)} className="report-group-author-link">
              <UserAvatar pic={target.author.pic} userName={target.author.userName} size={20} />{' '}
              {target.author.userName}
            </Link>
          </p>
        )}
        <ul className="plain-list report-group-reasons" aria-label="Reasons">
          {(Object.entries(group.reasons) as [ReportReason, number][]).map(([reason, count]) => (
            <li key={reason}>
              {REASON_LABELS[reason]} × {count}
            </li>
          ))}
        </ul>
        {group.notes.length > 0 && (
          <ul className="report-group-notes" aria-label="Notes from the reporters">
            {group.notes.map((note, index) => (
              <li key={index}>{note}</li>
            ))}
          </ul>
        )}
        <p className="report-group-times secondary-text">
          First reported <RelativeTime dateTime={group.firstReportedAt} />, last{' '}
          <RelativeTime dateTime={group.lastReportedAt} />
        </p>
        {group.status === 'open' && <ResolveForm group={group} />}
      </article>
    </Card>
  );
}

interface ResolveValues {
  reason: string;
  until: string;
}

const resolveSchema = yup.object({
  reason: yup
    .string()
    .trim()
    .required('Say why: the reason is shown in the moderation log.')
    .max(MODERATION.reasonMax, `The reason must be at most ${MODERATION.reasonMax} characters`),
  until: yup.string().defined(),
});

const DONE: Record<ModerationAction, string> = {
  dismiss: 'Reports dismissed',
  remove: 'Removed',
  'suspend-author': 'Removed, and the author suspended',
};

/** The reason (required, public) and the three actions; the suspension's end is optional. */
function ResolveForm({ group }: { group: ReportGroup }) {
  const resolve = useResolveReports();
  // Which button was pressed: a ref, read by the submit of this same click (state would be a render late).
  const chosen = useRef<ModerationAction>('dismiss');
  const [action, setAction] = useState<ModerationAction>('dismiss');
  const { control, handleSubmit, formState } = useForm<ResolveValues>({
    resolver: yupResolver(resolveSchema),
    defaultValues: { reason: '', until: '' },
  });
  const submit = useSubmitOnce(
    handleSubmit(async ({ reason, until }) => {
      const action = chosen.current;
      const end = action === 'suspend-author' ? endOfDay(until) : undefined;
      try {
        await resolve.mutateAsync({
          targetKind: group.targetKind,
          targetId: group.targetId,
          action,
          reason,
          ...(end ? { until: end } : {}),
        });
      } catch {
        return; // told by the mutation's errorToast (lib/query-client.ts)
      }
      notify.success(DONE[action]);
    }),
  );
  const run = (next: ModerationAction) => {
    chosen.current = next;
    setAction(next);
    void submit();
  };
  const canRemove = group.targetKind !== 'user' && group.target.excerpt !== null;
  const canSuspend = group.target.author !== null;
  return (
    <Form layout="vertical" className="resolve-form" onFinish={() => run('dismiss')}>
      <FormField
        control={control}
        name="reason"
        label="Reason (shown in the public log)"
        required
        max={MODERATION.reasonMax}
      >
        {(input) => <Input {...input} />}
      </FormField>
      {canSuspend && (
        <FormField control={control} name="until" label="Suspend until (empty: indefinitely)">
          {(input) => <Input {...input} type="date" min={new Date().toISOString().slice(0, 10)} />}
        </FormField>
      )}
      <div className="resolve-actions">
        <Button onClick={() => run('dismiss')} loading={busy(formState.isSubmitting && action === 'dismiss')}>
          Dismiss
        </Button>
        {canRemove && (
          <Button danger onClick={() => run('remove')} loading={busy(formState.isSubmitting && action === 'remove')}>
            Remove
          </Button>
        )}
        {canSuspend && (
          <Button
            danger
            type="primary"
            onClick={() => run('suspend-author')}
            loading={busy(formState.isSubmitting && action === 'suspend-author')}
          >
            {group.targetKind === 'user' ? 'Suspend user' : 'Suspend author'}
          </Button>
        )}
      </div>
    </Form>
  );
}
