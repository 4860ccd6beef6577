import { yupResolver } from '@hookform/resolvers/yup';
import { LIMITS } from '@techit/contract/limits';
import { Button, Form, Input, Typography } from 'antd';
import { useForm } from 'react-hook-form';
import * as yup from 'yup';
import { FormField } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { busy } from '../../../lib/busy';
import { notify } from '../../../lib/notify';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useSession } from '../../../lib/session';
import { useSubmitOnce } from '../../../lib/submit-once';
import { useChangeEmail } from '../api/change-email';
import { currentPassword } from './password-rules';

const schema = yup.object({
  email: yup.string().trim().required('Enter the new email address.').max(LIMITS.emailMax),
  password: currentPassword('Enter your password.'),
});

type Values = yup.InferType<typeof schema>;
const EMPTY: Values = { email: '', password: '' };

/** New email and the password that confirms it → PUT /api/email; the navigation shows the new address at once. */
export function ChangeEmailForm() {
  const { user } = useSession();
  const change = useChangeEmail();
  const { control, handleSubmit, reset, formState, setError } = useForm<Values>({
    resolver: yupResolver(schema),
    defaultValues: EMPTY,
  });

  const send = handleSubmit(async (values) => {
    try {
      const me = await change.mutateAsync(values);
      reset(EMPTY);
      notify.success(`Your email is now ${me.email}`);
    } catch (failure) {
      // A wrong password (403) under the password, an address in use (409) under the address.
      if (failure instanceof ApiError && failure.status === 403)
        setError('password', { type: 'server', message: failure.message }, { shouldFocus: true });
      else if (failure instanceof ApiError && failure.status === 409)
        setError('email', { type: 'server', message: failure.message }, { shouldFocus: true });
      else showServerFieldErrors(failure, setError, { email: 'email', password: 'password' });
    }
  });
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} requiredMark={false} className="settings-form">
      {user && (
        <Typography.Paragraph>
          Your email is <strong className="settings-current-email">{user.email}</strong>.
        </Typography.Paragraph>
      )}
      <FormField control={control} name="email" label="New email" id="settings-new-email">
        {(input) => <Input {...input} type="email" autoComplete="email" />}
      </FormField>
      <FormField control={control} name="password" label="Password" id="settings-email-password">
        {(input) => <Input.Password {...input} autoComplete="current-password" />}
      </FormField>
      <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
        Change email
      </Button>
    </Form>
  );
}
