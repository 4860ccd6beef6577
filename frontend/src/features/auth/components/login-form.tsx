import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { FormField } from '../../../components/form-field';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { useSubmitOnce } from '../../../lib/submit-once';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useSignIn } from '../api/sign-in';

interface LoginValues {
  userName: string;
  password: string;
}

const SERVER_FIELDS = { userName: 'userName', password: 'password' } as const;

/** No client-side rules (spec 5): the server says what is wrong, and we show its words. */
export function LoginForm() {
  const navigate = useNavigate();
  const session = useSession();
  const [error, setFormError] = useState<string | null>(null);
  const signIn = useSignIn();
  const { control, handleSubmit, formState, setError } = useForm<LoginValues>({
    defaultValues: { userName: '', password: '' },
  });

  const send = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const reply = await signIn.mutateAsync(values);
      session.signIn(reply.token, reply.user);
      notify.success('Signed in successfully');
      void navigate(paths.home);
    } catch (failure) {
      // Logged by the error policy (lib/query-client.ts). A missing field is said next to it; wrong
      // credentials (no field named) above the form.
      if (!(failure instanceof ApiError) || failure.status === 0) return;
      if (!showServerFieldErrors(failure, setError, SERVER_FIELDS)) setFormError(failure.message);
    }
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} requiredMark={false}>
      {error && <Alert type="error" title={error} showIcon role="alert" style={{ marginBottom: 16 }} />}
      <FormField control={control} name="userName" label="Username" id="login-username">
        {(input) => <Input {...input} autoComplete="username" placeholder="Username or email" />}
      </FormField>
      <FormField control={control} name="password" label="Password" id="login-password">
        {(input) => <Input.Password {...input} autoComplete="current-password" />}
      </FormField>
      <p className="login-forgot">
        <Link to={paths.forgotPassword}>Forgot password?</Link>
      </p>
      <Button type="primary" htmlType="submit" block loading={busy(formState.isSubmitting)}>
        Log in
      </Button>
    </Form>
  );
}
