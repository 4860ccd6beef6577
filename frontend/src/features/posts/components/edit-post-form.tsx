import { yupResolver } from '@hookform/resolvers/yup';
import type { Post } from '@techit/contract/api-types';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { isHttpUrl, withLinkScheme } from '@techit/contract/url-rules';
import { Alert, Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import * as yup from 'yup';
import { requiredText } from '../../../lib/form-rules';
import { ButtonLink } from '../../../components/button-link';
import { FormField } from '../../../components/form-field';
import { ImagePicker } from '../../../components/image-picker';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { imageVariant } from '@techit/contract/image-variants';
import { uploadImage } from '../../../lib/upload-image';
import { useEditPost } from '../api/edit-post';
import './posts.css';
import { busy } from '../../../lib/busy';
import { useSubmitOnce } from '../../../lib/submit-once';

const optionalLink = (name: string) =>
  yup
    .string()
    .trim()
    .max(LIMITS.linkMax, `${name} must be at most ${LIMITS.linkMax} characters`)
    .test(
      'web-link',
      `${name} must be a web address, such as example.com/page`,
      (value) => !value || isHttpUrl(withLinkScheme(value.trim())),
    )
    .default('');

const schema = yup.object({
  title: requiredText('Title', LIMITS.postTitleMax),
  category: yup
    .string()
    .required('Category is required')
    .test('category', 'Category is required', (value) => (CATEGORIES as readonly string[]).includes(value)),
  desc: requiredText('Description', LIMITS.postDescMax),
  link1: optionalLink('Code link'),
  link2: optionalLink('Demo link'),
});

const CATEGORY_OPTIONS = [
  { value: '', label: 'Select a category' },
  ...CATEGORIES.map((category) => ({ value: category, label: category })),
];

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
  const { control, handleSubmit, formState } = useForm({
    resolver: yupResolver(schema),
    defaultValues: {
      title: post.title,
      category: post.category,
      desc: post.desc,
      link1: post.link1,
      link2: post.link2,
    },
  });

  const send = handleSubmit(async (values) => {
    setFailure(null);
    let pic: string | undefined;
    if (file) {
      try {
        pic = await uploadImage(file);
      } catch {
        setFailure({ title: 'Oops, there was an issue while uploading image!' });
        return;
      }
    }
    try {
      await edit.mutateAsync({ ...values, category: values.category as Category, pic });
    } catch (error) {
      setFailure({
        title: 'Oops, there was an issue while creating the post!',
        description: error instanceof ApiError ? error.message : undefined,
      });
      return;
    }
    void navigate(paths.post(post._id));
  });
  // Pressed twice (a double click, Enter held), it sends once.
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Edit post">
      <FormField control={control} name="title" label="Title" required max={LIMITS.postTitleMax}>
        {(input) => <Input {...input} />}
      </FormField>
      <FormField control={control} name="category" label="Category" required>
        {({ id, value, onChange, onBlur, 'aria-invalid': invalid }) => (
          <Select
            id={id}
            value={value}
            onChange={onChange}
            onBlur={onBlur}
            options={CATEGORY_OPTIONS}
            aria-invalid={invalid}
          />
        )}
      </FormField>
      <FormField control={control} name="desc" label="Description" required max={LIMITS.postDescMax}>
        {(input) => <Input.TextArea {...input} autoSize={{ minRows: 4, maxRows: 12 }} />}
      </FormField>
      <Form.Item label="Image">
        {post.photo && !file && (
          <img
            {...imageVariant(post.photo, 'card')}
            alt="The post's current picture"
            className="post-form-current-photo"
            decoding="async"
          />
        )}
        <ImagePicker label={post.photo ? 'Change image' : 'Choose an image'} value={file} onChange={setFile} />
      </Form.Item>
      <FormField control={control} name="link1" label="Code link (optional)">
        {(input) => <Input {...input} type="url" inputMode="url" placeholder="https://github.com/…" />}
      </FormField>
      <FormField control={control} name="link2" label="Demo link (optional)">
        {(input) => <Input {...input} type="url" inputMode="url" placeholder="https://…" />}
      </FormField>
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
