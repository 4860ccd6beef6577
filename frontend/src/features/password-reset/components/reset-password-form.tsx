import { yupResolver } from '@hookform/resolvers/yup';
import { LIMITS } from '@techit/contract/limits';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import * as yup from 'yup';
import { ButtonLink } from '../../../components/button-link';
import { FormField } from '../../../components/form-field';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { useSubmitOnce } from '../../../lib/submit-once';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useConfirmReset } from '../api/confirm-reset';

/** The API's sentence for a link it refuses (decision 050), also said for a link without a token. */
export const INVALID_LINK = 'This password reset link is invalid, already used or expired. Ask for a new one.';

interface ResetValues {
  password: string;
  confirm: string;
}

// Sign-up's rules (LIMITS.passwordMin/Max, not blank) in the server's own sentences
// (backend password-reset DTO), checked here first; the server checks them again.
const schema = yup.object({
  password: yup
    .string()
    .defined()
    .test('not-blank', 'Choose a password.', (value) => value.trim() !== '')
    .min(LIMITS.passwordMin, `The password needs ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`)
    .max(LIMITS.passwordMax, `The password needs ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`),
  confirm: yup
    .string()
    .defined()
    .oneOf([yup.ref('password')], 'The two passwords differ: type the same one twice.'),
});

/** A link the API will not take (or no token at all): what happened, and where to ask for another. */
export function InvalidResetLink({ message = INVALID_LINK }: { message?: string }) {
  return (
    <>
      <Alert type="error" showIcon role="alert" title={message} style={{ marginBottom: 16 }} />
      {/* Outside the alert: a link on its pink would miss the contrast the text needs (4.5:1). */}
      <ButtonLink to={paths.forgotPassword} type="primary" block>
        Ask for a new link
      </ButtonLink>
    </>
  );
}

/**
 * Chooses a new password with the token of the mailed link (POST /api/password-reset/confirm).
 * The API answers no session (every session ends, decision 050): the person signs in with the new
 * password on the login page.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const session = useSession();
  const [refused, setRefused] = useState<string | null>(null);
  const [error, setFormError] = useState<string | null>(null);
  const confirm = useConfirmReset();
  const { control, handleSubmit, formState, setError } = useForm<ResetValues>({
    resolver: yupResolver(schema),
    defaultValues: { password: '', confirm: '' },
  });

  const send = handleSubmit(async ({ password }) => {
    setFormError(null);
    try {
      const reply = await confirm.mutateAsync({ token, password });
      // Every session of the account has ended, this browser's too if it was signed in: it signs
      // out now, rather than meet a 401 ("Please login again") at its next request.
      if (session.user) session.signOut();
      notify.success(reply.message);
      void navigate(paths.login);
    } catch (failure) {
      // Logged by the error policy (lib/query-client.ts). The password's sentence goes next to it;
      // a refused link replaces the form; anything else (the rate limit) shows above it.
      if (!(failure instanceof ApiError) || failure.status === 0) return;
      if (showServerFieldErrors(failure, setError, { password: 'password' })) return;
      if (failure.status === 400) setRefused(failure.message);
      else setFormError(failure.message);
    }
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  if (refused) return <InvalidResetLink message={refused} />;
  return (
    <Form layout="vertical" onFinish={() => void submit()} requiredMark={false}>
      {error && <Alert type="error" title={error} showIcon role="alert" style={{ marginBottom: 16 }} />}
      <FormField control={control} name="password" label="New password" id="reset-password">
        {(input) => <Input.Password {...input} autoComplete="new-password" />}
      </FormField>
      <FormField control={control} name="confirm" label="Confirm new password" id="reset-confirm">
        {(input) => <Input.Password {...input} autoComplete="new-password" />}
      </FormField>
      <Button type="primary" htmlType="submit" block loading={busy(formState.isSubmitting)}>
        Set new password
      </Button>
    </Form>
  );
}
