import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { FormField } from '../../../components/form-field';
import { ImagePicker } from '../../../components/image-picker';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { useSubmitOnce } from '../../../lib/submit-once';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { hasStatus } from '../../../lib/query-client';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { uploadRefusal, useUploadImage } from '../../../lib/upload-image';
import { useSignUp } from '../api/sign-up';

interface SignUpValues {
  userName: string;
  email: string;
  password: string;
  picture: File | null;
}

const EMPTY: SignUpValues = { userName: '', email: '', password: '', picture: null };

/** The server's words say what was wrong with the picture; no server reached, only the console. */
const UPLOAD_FAILED = {
  title: 'Oops, there was an issue while uploading image!',
  withReason: () => true,
  except: hasStatus(0),
};

/** The sign-up request's fields, as this form names them. */
const SERVER_FIELDS = { userName: 'userName', email: 'email', password: 'password' } as const;

/** The picture, when chosen, is uploaded first; its URL goes with the sign-up (spec 4). */
export function SignUpForm() {
  const navigate = useNavigate();
  const [error, setFormError] = useState<string | null>(null);
  const upload = useUploadImage(UPLOAD_FAILED);
  const signUp = useSignUp();
  const { control, handleSubmit, reset, formState, setError } = useForm<SignUpValues>({ defaultValues: EMPTY });

  const send = handleSubmit(async ({ picture, ...values }) => {
    setFormError(null);
    try {
      let pic: string | undefined;
      try {
        pic = picture ? await upload.mutateAsync(picture) : undefined;
      } catch {
        return; // told by the upload's errorToast (lib/query-client.ts)
      }
      const reply = await signUp.mutateAsync({ ...values, ...(pic ? { pic } : {}) });
      notify.success(reply.message);
      reset(EMPTY);
      void navigate(paths.login);
    } catch (failure) {
      // Logged by the error policy (lib/query-client.ts). The server's sentences go next to their
      // fields, all at once; its one-line error shows above the form only when no field is named.
      if (!(failure instanceof ApiError) || failure.status === 0) return;
      if (!showServerFieldErrors(failure, setError, SERVER_FIELDS)) setFormError(failure.message);
    }
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} requiredMark={false}>
      {error && <Alert type="error" title={error} showIcon role="alert" style={{ marginBottom: 16 }} />}
      <FormField control={control} name="userName" label="Username" id="signup-username">
        {(input) => <Input {...input} autoComplete="username" />}
      </FormField>
      <FormField control={control} name="email" label="Email" id="signup-email">
        {(input) => <Input {...input} type="email" autoComplete="email" />}
      </FormField>
      <FormField control={control} name="password" label="Password" id="signup-password">
        {(input) => <Input.Password {...input} autoComplete="new-password" />}
      </FormField>
      <Form.Item label="Picture (optional)">
        <Controller
          name="picture"
          control={control}
          render={({ field }) => (
            <ImagePicker
              label="Choose a picture"
              value={field.value}
              onChange={(chosen) => {
                upload.reset();
                field.onChange(chosen);
              }}
              error={uploadRefusal(upload.error)}
            />
          )}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy(formState.isSubmitting)}>
        Create account
      </Button>
    </Form>
  );
}
