import type { DraftFields } from '@techit/contract/api-types';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import type { PostFormValues } from './post-form-fields';

/**
 * A post form's values as a draft's fields and back (lib/use-draft-autosave.ts). `body` joins when
 * the form has it; a field the draft lacks keeps the form's value without a draft.
 */
export function postToDraft(values: PostFormValues): DraftFields {
  const { title, desc, category, link1, link2 } = values;
  const body = (values as { body?: unknown }).body;
  return { title, desc, category, link1, link2, ...(typeof body === 'string' ? { body } : {}) };
}

export function postFromDraft(fields: DraftFields, empty: PostFormValues): PostFormValues {
  const category = fields.category;
  const values: PostFormValues = {
    ...empty,
    title: fields.title ?? empty.title,
    desc: fields.desc ?? empty.desc,
    category:
      category === '' || CATEGORIES.includes(category as Category) ? (category as Category | '') : empty.category,
    link1: fields.link1 ?? empty.link1,
    link2: fields.link2 ?? empty.link2,
  };
  if (!('body' in empty)) return values;
  return { ...values, body: fields.body ?? (empty as { body?: string }).body } as PostFormValues;
}
