import { yupResolver } from '@hookform/resolvers/yup';
import { ACCOUNT_CONTENT_CHOICES, type AccountContentChoice } from '@techit/contract/api-types';
import { Button, Form, Input, Modal, Radio, Typography } from 'antd';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import * as yup from 'yup';
import { FormField } from '../../../components/form-field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { busy } from '../../../lib/busy';
import { notify } from '../../../lib/notify';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useSession } from '../../../lib/session';
import { useSubmitOnce } from '../../../lib/submit-once';
import { useDeleteAccount } from '../api/delete-account';
import { currentPassword } from './password-rules';

const CHOICE_SENTENCE = 'Choose what happens to your posts and comments.';

const schema = yup.object({
  password: currentPassword('Enter your password.'),
  content: yup.string().oneOf(ACCOUNT_CONTENT_CHOICES, CHOICE_SENTENCE).required(CHOICE_SENTENCE),
});

interface Values {
  password: string;
  content: AccountContentChoice | '';
}

/** The danger zone: a button, then a dialog asking for the password and what becomes of the user's writing. */
export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const fieldId = useId();
  return (
    <>
      <Typography.Paragraph>
        Your account is deleted at once and every session ends. This cannot be undone.
      </Typography.Paragraph>
      <Button danger onClick={() => setOpen(true)}>
        Delete my account
      </Button>
      <Modal
        open={open}
        title="Delete your account?"
        onCancel={() => setOpen(false)}
        footer={null}
        closable={false}
        destroyOnHidden
        afterOpenChange={(visible) => {
          if (visible) document.getElementById(fieldId)?.focus();
        }}
      >
        {open && <DeleteAccountForm fieldId={fieldId} onClose={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function DeleteAccountForm({ fieldId, onClose }: { fieldId: string; onClose: () => void }) {
  const navigate = useNavigate();
  const { signOut } = useSession();
  const remove = useDeleteAccount();
  const legendId = useId();
  const { control, handleSubmit, formState, setError } = useForm<Values>({
    resolver: yupResolver(schema) as never,
    defaultValues: { password: '', content: '' },
  });

  const send = handleSubmit(async ({ password, content }) => {
    if (content === '') return;
    try {
      await remove.mutateAsync({ password, content });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 403)
        setError('password', { type: 'server', message: failure.message }, { shouldFocus: true });
      else showServerFieldErrors(failure, setError, { password: 'password', content: 'content' });
      return;
    }
    // The account is gone and so is every session: this browser forgets it too.
    onClose();
    signOut();
    void navigate(paths.home);
    notify.success('Your account has been deleted');
  });
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} requiredMark={false}>
      <Typography.Paragraph>
        Your profile, follows, likes, bookmarks and drafts go with it, at once.
      </Typography.Paragraph>
      <Controller
        control={control}
        name="content"
        render={({ field, fieldState: { error } }) => (
          <fieldset className="settings-choice" aria-describedby={error ? `${legendId}-error` : undefined}>
            <legend id={legendId}>Your posts, notices and comments</legend>
            <Radio.Group
              value={field.value}
              onChange={(event) => field.onChange(event.target.value as AccountContentChoice)}
              className="settings-choice-options"
            >
              <Radio value="delete">Delete my posts and comments</Radio>
              <Radio value="anonymise">Keep them, shown as by [deleted user]</Radio>
            </Radio.Group>
            {error?.message && (
              <span id={`${legendId}-error`} role="alert" className="settings-choice-error">
                {error.message}
              </span>
            )}
          </fieldset>
        )}
      />
      <FormField control={control} name="password" label="Your password" id={fieldId}>
        {(input) => <Input.Password {...input} autoComplete="current-password" />}
      </FormField>
      <div className="settings-dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="primary" danger htmlType="submit" loading={busy(formState.isSubmitting)}>
          Delete my account
        </Button>
      </div>
    </Form>
  );
}
