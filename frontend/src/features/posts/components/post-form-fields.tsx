import { yupResolver } from '@hookform/resolvers/yup';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { normaliseTags } from '@techit/contract/tag-rules';
import { isHttpUrl, withLinkScheme } from '@techit/contract/url-rules';
import { Input, Select } from 'antd';
import type { Control } from 'react-hook-form';
import * as yup from 'yup';
import { FormField } from '../../../components/form-field';
import { MarkdownEditor } from '../../../components/markdown-editor';
import { TagInput } from '../../../components/tag-input';
import { requiredText } from '../../../lib/form-rules';

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
    .defined();

const fields = {
  title: requiredText('Title', LIMITS.postTitleMax),
  desc: requiredText('Description', LIMITS.postDescMax),
  // Markdown: kept as written (leading spaces indent code), only its length is limited.
  body: yup.string().max(LIMITS.postBodyMax, `Body must be at most ${LIMITS.postBodyMax} characters`).defined(),
  link1: optionalLink('Code link'),
  link2: optionalLink('Demo link'),
  // The input only ever holds what the contract's rule accepts; this is the same rule once more,
  // with its own sentence, for whatever reaches the form another way.
  tags: yup
    .array(yup.string().defined())
    .defined()
    .test('tags', (tags, context) => {
      const checked = normaliseTags(tags);
      return checked.ok || context.createError({ message: checked.error });
    }),
};

/**
 * The fields of a post, the same on the create and the edit form: title and description
 * (required), an optional Markdown body, a category, a Code link and a Demo link (typed without
 * a scheme, they get https:// from the server, as withLinkScheme says). On create the category
 * may stay blank ("none"); the edit form is the spec's (section 5: title, category and
 * description required).
 */
const createSchema = yup.object({
  ...fields,
  category: yup
    .mixed<Category | ''>()
    .oneOf(['', ...CATEGORIES], `Choose ${CATEGORIES.join(' or ')}, or leave the category blank`)
    .defined(),
});

const editSchema = yup.object({
  ...fields,
  category: yup.mixed<Category | ''>().oneOf(CATEGORIES, 'Category is required').defined(),
});

export type PostFormValues = yup.InferType<typeof createSchema>;

export const createPostResolver = yupResolver(createSchema);
export const editPostResolver = yupResolver(editSchema);

/** The request's names for the fields, as the forms name them: a server sentence goes next to its field. */
export const POST_SERVER_FIELDS = {
  title: 'title',
  desc: 'desc',
  body: 'body',
  category: 'category',
  link1: 'link1',
  link2: 'link2',
  tags: 'tags',
} as const;

const CATEGORY_CHOICES = CATEGORIES.map((category) => ({ value: category, label: category }));

export function PostTitleField({ control, placeholder }: { control: Control<PostFormValues>; placeholder?: string }) {
  return (
    <FormField control={control} name="title" label="Title" required max={LIMITS.postTitleMax}>
      {(input) => <Input {...input} placeholder={placeholder} />}
    </FormField>
  );
}

/**
 * The card's summary: the small Markdown set (code, links, emphasis, lists, quotes), rendered as
 * a comment is, so its preview is the comment kind's. No pictures: the small set has none.
 */
export function PostDescField({ control, placeholder }: { control: Control<PostFormValues>; placeholder?: string }) {
  return (
    <FormField control={control} name="desc" label="Description" required max={LIMITS.postDescMax}>
      {(input) => (
        <MarkdownEditor {...input} kind="comment" placeholder={placeholder} autoSize={{ minRows: 4, maxRows: 12 }} />
      )}
    </FormField>
  );
}

/** The article itself, optional: full Markdown (headings, tables, pictures pasted or dropped in). */
export function PostBodyField({ control }: { control: Control<PostFormValues> }) {
  return (
    <FormField control={control} name="body" label="Body (optional)" max={LIMITS.postBodyMax}>
      {(input) => (
        <MarkdownEditor
          {...input}
          kind="post"
          images
          placeholder="Write the article in Markdown: code blocks, links, lists… Paste or drop a picture to add it."
          autoSize={{ minRows: 10, maxRows: 30 }}
        />
      )}
    </FormField>
  );
}

/** `required`: the edit form's (the spec's) category; without it a blank choice means none. */
export function PostCategoryField({
  control,
  required = false,
}: {
  control: Control<PostFormValues>;
  required?: boolean;
}) {
  const options = required
    ? [{ value: '', label: 'Select a category' }, ...CATEGORY_CHOICES]
    : [{ value: '', label: 'No category' }, ...CATEGORY_CHOICES];
  return (
    <FormField
      control={control}
      name="category"
      label={required ? 'Category' : 'Category (optional)'}
      required={required}
    >
      {({ id, value, onChange, onBlur, 'aria-invalid': invalid, 'aria-describedby': describedBy }) => (
        <Select
          id={id}
          value={value}
          onChange={onChange}
          onBlur={onBlur}
          options={options}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      )}
    </FormField>
  );
}

/** Up to LIMITS.postTagsMax tags, typed with suggestions (components/tag-input.tsx). */
export function PostTagsField({ control }: { control: Control<PostFormValues> }) {
  return (
    <FormField control={control} name="tags" label="Tags (optional)">
      {(input) => <TagInput {...input} />}
    </FormField>
  );
}

/** Typed as a person types them ("github.com/me/x"): no `type="url"`, whose browser check wants a scheme. */
export function PostLinkFields({ control }: { control: Control<PostFormValues> }) {
  return (
    <>
      <FormField control={control} name="link1" label="Code link (optional)">
        {(input) => <Input {...input} inputMode="url" placeholder="github.com/you/project" />}
      </FormField>
      <FormField control={control} name="link2" label="Demo link (optional)">
        {(input) => <Input {...input} inputMode="url" placeholder="example.com/demo" />}
      </FormField>
    </>
  );
}
