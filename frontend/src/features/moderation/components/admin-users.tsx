import { yupResolver } from '@hookform/resolvers/yup';
import type { AdminUser } from '@techit/contract/api-types';
import { ROLES, type Role } from '@techit/contract/enums';
import { LIMITS, MODERATION } from '@techit/contract/limits';
import { Button, Empty, Form, Input, Modal, Select, Spin, Typography } from 'antd';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import * as yup from 'yup';
import { LoadMoreButton } from '../../../components/load-more-button';
import { FormField } from '../../../components/form-field';
import { Card } from '../../../components/surface-card';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useSubmitOnce } from '../../../lib/submit-once';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useAdminUsers } from '../api/get-admin-users';
import { usePasswordResetLink } from '../api/password-reset-link';
import { useSetRole } from '../api/set-role';
import { useSuspension } from '../api/set-suspension';
import { ROLE_LABELS, endOfDay, suspensionText } from './moderation-labels';

/** Users: search by name, each with role and suspension, and what the reader may change. */
export function AdminUsers() {
  const [q, setQ] = useState('');
  const search = useDebouncedValue(q.trim(), 300);
  const users = useAdminUsers(search);
  const list = users.data?.pages.flatMap((page) => page.users) ?? [];
  const searchId = useId();
  return (
    <div className="moderation-section">
      <div className="admin-users-search">
        <label htmlFor={searchId}>Search users by name</label>
        <Input.Search
          id={searchId}
          value={q}
          maxLength={LIMITS.userNameMax}
          allowClear
          onChange={(event) => setQ(event.target.value)}
          placeholder="Name"
        />
      </div>
      {users.isPending ? (
        <Spin className="moderation-loading" />
      ) : list.length === 0 ? (
        <Empty description="No user has such a name" />
      ) : (
        <ul className="plain-list moderation-cards" aria-label="Users">
          {list.map((user) => (
            <li key={user._id}>
              <AdminUserCard user={user} />
            </li>
          ))}
        </ul>
      )}
      <LoadMoreButton pages={users} className="moderation-more" />
    </div>
  );
}

function AdminUserCard({ user }: { user: AdminUser }) {
  const { user: me, isAdmin } = useSession();
  const setRole = useSetRole();
  const resetLink = usePasswordResetLink();
  const [suspending, setSuspending] = useState(false);
  const roleId = useId();
  const self = me?._id === user._id;
  const staff = user.role !== 'user';

  const makeLink = async () => {
    let reply;
    try {
      reply = await resetLink.mutateAsync(user._id);
    } catch {
      return; // told by the mutation's errorToast
    }
    Modal.info({
      title: `Password reset link for ${user.userName}`,
      content: (
        <div>
          <p>
            Pass it on to {user.userName}: it works once, until {new Date(reply.expiresAt).toLocaleString()}.
          </p>
          <Typography.Paragraph copyable={{ text: reply.link }} className="reset-link">
            {reply.link}
          </Typography.Paragraph>
        </div>
      ),
      okText: 'Done',
    });
  };

  return (
    <Card className="admin-user">
      <article aria-label={user.userName}>
        <header className="admin-user-header">
          <Link to={paths.profile(user._id)} className="admin-user-name">
            <UserAvatar pic={user.pic} userName={user.userName} size={32} /> {user.userName}
          </Link>
          <span className="admin-user-role">{ROLE_LABELS[user.role]}</span>
        </header>
        <p className="admin-user-state">
          {user.suspendedUntil ? `Suspended ${suspensionText(user.suspendedUntil)}` : 'Not suspended'}
        </p>
        <div className="admin-user-actions">
          {isAdmin && !self && (
            <span className="admin-user-role-select">
              <label htmlFor={roleId}>Role</label>
              <Select<Role>
                id={roleId}
                value={user.role}
                style={{ minWidth: 130 }}
                loading={setRole.isPending}
                onChange={(role) =>
                  void setRole.mutateAsync({ userId: user._id, role }).then(
                    () => notify.success(`${user.userName} is now: ${ROLE_LABELS[role]}`),
                    () => undefined,
                  )
                }
                options={ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
              />
            </span>
          )}
          {!self && !staff && (
            <Button danger={!user.suspendedUntil} onClick={() => setSuspending(true)}>
              {user.suspendedUntil ? 'Unsuspend' : 'Suspend'}
            </Button>
          )}
          {isAdmin && (
            <Button onClick={() => void makeLink()} loading={busy(resetLink.isPending)}>
              Reset password link
            </Button>
          )}
        </div>
      </article>
      <Modal
        open={suspending}
        title={user.suspendedUntil ? `Lift ${user.userName}'s suspension` : `Suspend ${user.userName}`}
        onCancel={() => setSuspending(false)}
        footer={null}
        closable={false}
        destroyOnHidden
      >
        {suspending && <SuspendForm user={user} onClose={() => setSuspending(false)} />}
      </Modal>
    </Card>
  );
}

const suspendSchema = yup.object({
  reason: yup
    .string()
    .trim()
    .required('Say why: the reason is shown in the moderation log.')
    .max(MODERATION.reasonMax, `The reason must be at most ${MODERATION.reasonMax} characters`),
  until: yup.string().defined(),
});

function SuspendForm({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const suspension = useSuspension();
  const lift = user.suspendedUntil !== null;
  const { control, handleSubmit, formState } = useForm<{ reason: string; until: string }>({
    resolver: yupResolver(suspendSchema),
    defaultValues: { reason: '', until: '' },
  });
  const submit = useSubmitOnce(
    handleSubmit(async ({ reason, until }) => {
      const end = lift ? undefined : endOfDay(until);
      try {
        await suspension.mutateAsync({ userId: user._id, lift, reason, ...(end ? { until: end } : {}) });
      } catch {
        return;
      }
      notify.success(lift ? `${user.userName} is no longer suspended` : `${user.userName} is suspended`);
      onClose();
    }),
  );
  return (
    <Form layout="vertical" onFinish={() => void submit()}>
      <FormField
        control={control}
        name="reason"
        label="Reason (shown in the public log)"
        required
        max={MODERATION.reasonMax}
      >
        {(input) => <Input {...input} autoFocus />}
      </FormField>
      {!lift && (
        <FormField control={control} name="until" label="Until (empty: indefinitely)">
          {(input) => <Input {...input} type="date" min={new Date().toISOString().slice(0, 10)} />}
        </FormField>
      )}
      <div className="report-dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="primary" danger={!lift} htmlType="submit" loading={busy(formState.isSubmitting)}>
          {lift ? 'Unsuspend' : 'Suspend'}
        </Button>
      </div>
    </Form>
  );
}
