import { yupResolver } from '@hookform/resolvers/yup';
import { Button, Form, Input } from 'antd';
import { useForm } from 'react-hook-form';
import * as yup from 'yup';
import { FormField } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { busy } from '../../../lib/busy';
import { notify } from '../../../lib/notify';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useSubmitOnce } from '../../../lib/submit-once';
import { useChangePassword } from '../api/change-password';
import { currentPassword, newPassword } from './password-rules';

const schema = yup.object({
  current: currentPassword('Enter your current password.'),
  next: newPassword,
  confirm: yup
    .string()
    .required('Type the new password again.')
    .oneOf([yup.ref('next')], 'The two new passwords are not the same.'),
});

type Values = yup.InferType<typeof schema>;
const EMPTY: Values = { current: '', next: '', confirm: '' };

/** Current, new and new again → PUT /api/password; this browser stays signed in, every other one is signed out. */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const { control, handleSubmit, reset, formState, setError } = useForm<Values>({
    resolver: yupResolver(schema),
    defaultValues: EMPTY,
  });

  const send = handleSubmit(async ({ current, next }) => {
    try {
      await change.mutateAsync({ current, next });
      reset(EMPTY);
      notify.success('Password changed. Other sessions have been signed out.');
    } catch (failure) {
      // A wrong current password (403) is said where it was typed; the server's sentence for a
      // refused field goes under that field. Anything else is the mutation's toast.
      if (failure instanceof ApiError && failure.status === 403)
        setError('current', { type: 'server', message: failure.message }, { shouldFocus: true });
      else showServerFieldErrors(failure, setError, { current: 'current', next: 'next' });
    }
  });
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} requiredMark={false} className="settings-form">
      <FormField control={control} name="current" label="Current password" id="settings-current-password">
        {(input) => <Input.Password {...input} autoComplete="current-password" />}
      </FormField>
      <FormField control={control} name="next" label="New password" id="settings-new-password">
        {(input) => <Input.Password {...input} autoComplete="new-password" />}
      </FormField>
      <FormField control={control} name="confirm" label="Confirm new password" id="settings-confirm-password">
        {(input) => <Input.Password {...input} autoComplete="new-password" />}
      </FormField>
      <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
        Change password
      </Button>
    </Form>
  );
}
