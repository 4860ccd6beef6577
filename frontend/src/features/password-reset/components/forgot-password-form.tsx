import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormField } from '../../../components/form-field';
import { busy } from '../../../lib/busy';
import { useSubmitOnce } from '../../../lib/submit-once';
import { ApiError } from '../../../lib/api-client';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useRequestReset } from '../api/request-reset';

/**
 * The one sentence shown once the request is sent, whatever the email: the API answers the same
 * for every address (decision 050), and so does the page, so it tells nobody whether an account
 * uses it.
 */
export const RESET_SENT =
  "If an account uses that email, we've sent a link to reset its password. It works for an hour.";

interface ForgotValues {
  email: string;
}

/** Asks for a reset link by email (POST /api/password-reset). The server checks the address. */
export function ForgotPasswordForm() {
  const [sent, setSent] = useState(false);
  const [error, setFormError] = useState<string | null>(null);
  const request = useRequestReset();
  const { control, handleSubmit, formState, setError } = useForm<ForgotValues>({ defaultValues: { email: '' } });

  const send = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await request.mutateAsync(values);
      setSent(true);
    } catch (failure) {
      // Logged by the error policy (lib/query-client.ts). A malformed email is said next to the
      // field; anything else (the rate limit's 429 with how long to wait) above the form.
      if (!(failure instanceof ApiError)) return;
      if (!showServerFieldErrors(failure, setError, { email: 'email' })) setFormError(failure.message);
    }
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  if (sent) {
    return <Alert type="success" showIcon role="status" title={RESET_SENT} />;
  }
  return (
    <Form layout="vertical" onFinish={() => void submit()} requiredMark={false}>
      {error && <Alert type="error" title={error} showIcon role="alert" style={{ marginBottom: 16 }} />}
      <FormField control={control} name="email" label="Email" id="forgot-email">
        {(input) => <Input {...input} type="email" autoComplete="email" />}
      </FormField>
      <Button type="primary" htmlType="submit" block loading={busy(formState.isSubmitting)}>
        Send me a reset link
      </Button>
    </Form>
  );
}
