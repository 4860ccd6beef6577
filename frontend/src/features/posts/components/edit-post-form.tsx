import { yupResolver } from '@hookform/resolvers/yup';
import type { Post } from '@techit/contract/api-types';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { isHttpUrl } from '@techit/contract/url-rules';
import { Alert, Button, Form, Input, Select, Space } from 'antd';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import * as yup from 'yup';
import { requiredText } from '../../../lib/form-rules';
import { ButtonLink } from '../../../components/button-link';
import { ImagePicker } from '../../../components/image-picker';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { imageVariant } from '@techit/contract/image-variants';
import { uploadImage } from '../../../lib/upload-image';
import { useEditPost } from '../api/edit-post';
import './posts.css';
import { busy } from '../../../lib/busy';

const optionalLink = (name: string) =>
  yup
    .string()
    .trim()
    .max(LIMITS.linkMax, `${name} must be at most ${LIMITS.linkMax} characters`)
    .test('web-link', `${name} must start with http:// or https://`, (value) => !value || isHttpUrl(value))
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
  const ids = { title: useId(), category: useId(), desc: useId(), link1: useId(), link2: useId() };
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
  const { errors } = formState;
  const status = (name: keyof typeof errors) => (errors[name] ? 'error' : undefined);

  const submit = handleSubmit(async (values) => {
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

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Edit post">
      <Form.Item
        label="Title"
        htmlFor={ids.title}
        required
        validateStatus={status('title')}
        help={errors.title?.message}
      >
        <Controller
          name="title"
          control={control}
          render={({ field }) => (
            <Input
              {...field}
              id={ids.title}
              count={{ show: true, max: LIMITS.postTitleMax }}
              aria-invalid={errors.title ? true : undefined}
            />
          )}
        />
      </Form.Item>
      <Form.Item
        label="Category"
        htmlFor={ids.category}
        required
        validateStatus={status('category')}
        help={errors.category?.message}
      >
        <Controller
          name="category"
          control={control}
          render={({ field }) => (
            <Select
              id={ids.category}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              options={CATEGORY_OPTIONS}
              aria-invalid={errors.category ? true : undefined}
            />
          )}
        />
      </Form.Item>
      <Form.Item
        label="Description"
        htmlFor={ids.desc}
        required
        validateStatus={status('desc')}
        help={errors.desc?.message}
      >
        <Controller
          name="desc"
          control={control}
          render={({ field }) => (
            <Input.TextArea
              {...field}
              id={ids.desc}
              autoSize={{ minRows: 4, maxRows: 12 }}
              count={{ show: true, max: LIMITS.postDescMax }}
              aria-invalid={errors.desc ? true : undefined}
            />
          )}
        />
      </Form.Item>
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
      <Form.Item
        label="Code link (optional)"
        htmlFor={ids.link1}
        validateStatus={status('link1')}
        help={errors.link1?.message}
      >
        <Controller
          name="link1"
          control={control}
          render={({ field }) => (
            <Input
              {...field}
              id={ids.link1}
              type="url"
              inputMode="url"
              placeholder="https://github.com/…"
              aria-invalid={errors.link1 ? true : undefined}
            />
          )}
        />
      </Form.Item>
      <Form.Item
        label="Demo link (optional)"
        htmlFor={ids.link2}
        validateStatus={status('link2')}
        help={errors.link2?.message}
      >
        <Controller
          name="link2"
          control={control}
          render={({ field }) => (
            <Input
              {...field}
              id={ids.link2}
              type="url"
              inputMode="url"
              placeholder="https://…"
              aria-invalid={errors.link2 ? true : undefined}
            />
          )}
        />
      </Form.Item>
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
