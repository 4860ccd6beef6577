import type { DraftFields } from '@techit/contract/api-types';
import { CATEGORIES, type Category } from '@techit/contract/enums';

/** What a post form holds (post-form-fields.tsx). */
interface PostValues {
  title: string;
  desc: string;
  category: Category | '';
  link1: string;
  link2: string;
  body: string;
  tags: string[];
}

/**
 * A post form's values as a draft's fields and back (lib/use-draft-autosave.ts); a field the draft
 * lacks keeps the form's value without a draft.
 */
export function postToDraft(values: PostValues): DraftFields {
  const { title, desc, category, link1, link2, body, tags } = values;
  return { title, desc, category, link1, link2, body, tags };
}

export function postFromDraft<TValues extends PostValues>(fields: DraftFields, empty: TValues): TValues {
  const category = fields.category;
  const values: TValues = {
    ...empty,
    title: fields.title ?? empty.title,
    desc: fields.desc ?? empty.desc,
    category: category === '' || CATEGORIES.includes(category as Category) ? category : empty.category,
    link1: fields.link1 ?? empty.link1,
    link2: fields.link2 ?? empty.link2,
    body: fields.body ?? empty.body,
    tags: fields.tags ?? empty.tags,
  };
  return values;
}
