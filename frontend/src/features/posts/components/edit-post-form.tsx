import type { Post } from '@techit/contract/api-types';
import { Alert, Button, Form, Space } from 'antd';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ButtonLink } from '../../../components/button-link';
import { ImagePicker } from '../../../components/image-picker';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { imageVariant } from '@techit/contract/image-variants';
import { showServerFieldErrors } from '../../../lib/server-field-errors';
import { uploadImage, uploadRefusal } from '../../../lib/upload-image';
import { useEditPost } from '../api/edit-post';
import {
  POST_SERVER_FIELDS,
  PostBodyField,
  PostCategoryField,
  PostDescField,
  PostLinkFields,
  PostTagsField,
  PostTitleField,
  editPostResolver,
  type PostFormValues,
} from './post-form-fields';
import './posts.css';
import { busy } from '../../../lib/busy';
import { useSubmitOnce } from '../../../lib/submit-once';
import { DraftStatusBar } from '../../../components/draft-status-bar';
import { useDraftAutosave } from '../../../lib/use-draft-autosave';
import { postFromDraft, postToDraft } from './post-draft-fields';

interface FailureAlert {
  title: string;
  description?: string;
}

/** Every field of a post, prefilled; the author saves it and lands on the post. */
export function EditPostForm({ post }: { post: Post }) {
  const navigate = useNavigate();
  const edit = useEditPost(post._id);
  const [file, setFile] = useState<File | null>(null);
  const [failure, setFailure] = useState<FailureAlert | null>(null);
  const [pictureRefused, setPictureRefused] = useState<string | null>(null);
  const [saved] = useState<PostFormValues>(() => ({
    title: post.title,
    category: post.category,
    desc: post.desc,
    body: post.body ?? '',
    link1: post.link1,
    link2: post.link2,
    tags: post.tags,
  }));
  const form = useForm<PostFormValues>({ resolver: editPostResolver, defaultValues: saved });
  const { control, handleSubmit, formState, setError } = form;
  // The post's edit draft: reopening this page restores what was typed and not saved.
  const autosave = useDraftAutosave({
    form,
    kind: 'post',
    postId: post._id,
    empty: saved,
    toDraft: postToDraft,
    fromDraft: postFromDraft,
  });

  const send = handleSubmit(async (values) => {
    setFailure(null);
    setPictureRefused(null);
    let pic: string | undefined;
    if (file) {
      try {
        pic = await uploadImage(file);
      } catch (error) {
        setFailure({ title: 'Oops, there was an issue while uploading image!' });
        setPictureRefused(uploadRefusal(error));
        return;
      }
    }
    // The server deletes the draft once the edit is stored.
    const draftId = await autosave.beforePublish();
    try {
      await edit.mutateAsync({ ...values, pic, draftId });
    } catch (error) {
      autosave.afterPublish(false);
      // The server's sentence per refused field goes next to it; the alert says the save failed.
      const named = showServerFieldErrors(error, setError, POST_SERVER_FIELDS);
      setFailure({
        title: 'Oops, there was an issue while creating the post!',
        description: error instanceof ApiError && !named ? error.message : undefined,
      });
      return;
    }
    autosave.afterPublish(true);
    void navigate(paths.post(post._id));
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Edit post">
      <PostTitleField control={control} />
      <PostCategoryField control={control} required />
      <PostTagsField control={control} />
      <PostDescField control={control} />
      <PostBodyField control={control} />
      <Form.Item label="Image">
        {post.photo && !file && (
          <img
            {...imageVariant(post.photo, 'card')}
            alt="The post's current picture"
            className="post-form-current-photo"
            decoding="async"
          />
        )}
        <ImagePicker
          label={post.photo ? 'Change image' : 'Choose an image'}
          value={file}
          onChange={(chosen) => {
            setPictureRefused(null);
            setFile(chosen);
          }}
          error={pictureRefused}
        />
      </Form.Item>
      <PostLinkFields control={control} />
      <DraftStatusBar autosave={autosave} />
      {failure && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={failure.title}
          description={failure.description}
          style={{ marginBottom: 16 }}
        />
      )}
      <Space>
        <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
          Save changes
        </Button>
        <ButtonLink to={paths.post(post._id)}>Cancel</ButtonLink>
      </Space>
    </Form>
  );
}
