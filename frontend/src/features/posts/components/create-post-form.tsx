import { yupResolver } from '@hookform/resolvers/yup';
import { LIMITS } from '@techit/contract/limits';
import { Button, Form, Input } from 'antd';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import * as yup from 'yup';
import { requiredText } from '../../../lib/form-rules';
import { FormField } from '../../../components/form-field';
import { ImagePicker } from '../../../components/image-picker';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { storage } from '../../../lib/storage';
import { hasStatus } from '../../../lib/query-client';
import { useUploadImage } from '../../../lib/upload-image';
import { useCreatePost } from '../api/create-post';
import './posts.css';
import { busy } from '../../../lib/busy';
import { useIdempotencyKey } from '../../../lib/idempotency-key';
import { useSubmitOnce } from '../../../lib/submit-once';

const schema = yup.object({
  title: requiredText('Title', LIMITS.postTitleMax),
  desc: requiredText('Description', LIMITS.postDescMax),
});

/** The upload's failure; a 401 is told below. */
const UPLOAD_FAILED = { title: 'Oops, there was an issue while uploading image!', except: hasStatus(401) };

/** Title, description and an optional picture: the picture is uploaded first, then the post created. */
export function CreatePostForm() {
  const navigate = useNavigate();
  const upload = useUploadImage(UPLOAD_FAILED);
  const create = useCreatePost();
  const [file, setFile] = useState<File | null>(null);
  // A retry after a failed create reuses the picture already uploaded, so it is the same request
  // (same Idempotency-Key) and leaves no second upload behind.
  const uploaded = useRef<{ file: File; url: string } | null>(null);
  const idempotency = useIdempotencyKey();
  const { control, handleSubmit, formState } = useForm({
    resolver: yupResolver(schema),
    defaultValues: { title: '', desc: '' },
  });

  const send = handleSubmit(async ({ title, desc }) => {
    const hadToken = storage.token() !== null;
    try {
      if (file && uploaded.current?.file !== file) uploaded.current = { file, url: await upload.mutateAsync(file) };
      const request = { title, desc, pic: file ? uploaded.current?.url : undefined };
      await create.mutateAsync({ ...request, idempotencyKey: idempotency.keyFor(request) });
    } catch (error) {
      // Other failures are told by the mutations' errorToast (lib/query-client.ts). A 401 means the
      // session is over: the api-client has signed the user out and said 'Please login again' when
      // a token was sent; say it here when it was not.
      if (error instanceof ApiError && error.status === 401 && !hadToken) notify.error('Please login again');
      return;
    }
    idempotency.done();
    notify.success('Created post successfully');
    void navigate(paths.home);
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Create a post">
      <FormField control={control} name="title" label="Title" required max={LIMITS.postTitleMax}>
        {(input) => <Input {...input} placeholder="What is your post about?" />}
      </FormField>
      <FormField control={control} name="desc" label="Description" required max={LIMITS.postDescMax}>
        {(input) => (
          <Input.TextArea {...input} placeholder="Share the details" autoSize={{ minRows: 4, maxRows: 12 }} />
        )}
      </FormField>
      <Form.Item>
        <ImagePicker label="Choose an image" value={file} onChange={setFile} />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy(formState.isSubmitting)}>
        Post
      </Button>
    </Form>
  );
}
