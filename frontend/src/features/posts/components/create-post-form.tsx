import { Button, Form } from 'antd';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ImagePicker } from '../../../components/image-picker';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { storage } from '../../../lib/storage';
import { hasStatus } from '../../../lib/query-client';
import { uploadRefusal, useUploadImage } from '../../../lib/upload-image';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { useCreatePost } from '../api/create-post';
import {
  POST_SERVER_FIELDS,
  PostBodyField,
  PostCategoryField,
  PostDescField,
  PostLinkFields,
  PostTagsField,
  PostTitleField,
  createPostResolver,
  type PostFormValues,
} from './post-form-fields';
import './posts.css';
import { busy } from '../../../lib/busy';
import { useIdempotencyKey } from '../../../lib/idempotency-key';
import { useSubmitOnce } from '../../../lib/submit-once';
import { DraftStatusBar } from '../../../components/draft-status-bar';
import { type DraftChoice, useDraftAutosave } from '../../../lib/use-draft-autosave';
import { postFromDraft, postToDraft } from './post-draft-fields';

const EMPTY: PostFormValues = { title: '', category: '', desc: '', body: '', link1: '', link2: '', tags: [] };

/** The upload's failure; a 401 is told below. */
const UPLOAD_FAILED = { title: 'Oops, there was an issue while uploading image!', except: hasStatus(401) };

/**
 * Title, description, and the same optional fields as the edit form (picture, category, Code and
 * Demo links): the picture is uploaded first, then the post created.
 */
export function CreatePostForm({
  draft: choice,
  onDraftId,
}: {
  draft?: DraftChoice;
  onDraftId?: (id: string | null) => void;
}) {
  const navigate = useNavigate();
  const upload = useUploadImage(UPLOAD_FAILED);
  const create = useCreatePost();
  const [file, setFile] = useState<File | null>(null);
  // A retry after a failed create reuses the picture already uploaded, so it is the same request
  // (same Idempotency-Key) and leaves no second upload behind.
  const uploaded = useRef<{ file: File; url: string } | null>(null);
  const idempotency = useIdempotencyKey();
  const form = useForm<PostFormValues>({ resolver: createPostResolver, defaultValues: EMPTY });
  const { control, handleSubmit, formState, setError } = form;
  const autosave = useDraftAutosave({
    form,
    kind: 'post',
    choice,
    empty: EMPTY,
    toDraft: postToDraft,
    fromDraft: postFromDraft,
    onDraftId,
  });

  const send = handleSubmit(async (values) => {
    const hadToken = storage.token() !== null;
    // The server deletes the draft once the post is stored.
    const draftId = await autosave.beforePublish();
    try {
      if (file && uploaded.current?.file !== file) uploaded.current = { file, url: await upload.mutateAsync(file) };
      const request = { ...values, pic: file ? uploaded.current?.url : undefined };
      await create.mutateAsync({ ...request, draftId, idempotencyKey: idempotency.keyFor(request) });
    } catch (error) {
      autosave.afterPublish(false);
      // The server's sentence per refused field goes next to it (the toast says the post failed).
      showServerFieldErrors(error, setError, POST_SERVER_FIELDS);
      // Other failures are told by the mutations' errorToast (lib/query-client.ts). A 401 means the
      // session is over: the api-client has signed the user out and said 'Please login again' when
      // a token was sent; say it here when it was not.
      if (error instanceof ApiError && error.status === 401 && !hadToken) notify.error('Please login again');
      return;
    }
    idempotency.done();
    autosave.afterPublish(true);
    notify.success('Created post successfully');
    void navigate(paths.home);
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Create a post">
      <PostTitleField control={control} placeholder="What is your post about?" />
      <PostCategoryField control={control} />
      <PostTagsField control={control} />
      <PostDescField control={control} placeholder="Share the details" />
      <PostBodyField control={control} />
      <Form.Item>
        <ImagePicker
          label="Choose an image"
          value={file}
          onChange={(chosen) => {
            upload.reset();
            setFile(chosen);
          }}
          error={uploadRefusal(upload.error)}
        />
      </Form.Item>
      <PostLinkFields control={control} />
      <DraftStatusBar autosave={autosave} />
      <Button type="primary" htmlType="submit" block loading={busy(formState.isSubmitting)}>
        Post
      </Button>
    </Form>
  );
}
