import type { DraftFields } from '@techit/contract/api-types';

/** The notice form's values: a description and its links, one input each. */
export interface NoticeValues {
  desc: string;
  links: { value: string }[];
}

/** The notice form's values as a draft's fields and back (lib/use-draft-autosave.ts). */
export function noticeToDraft(values: NoticeValues): DraftFields {
  // Read while a link row is being added, an entry may not hold its value yet.
  const links = (values.links as ({ value?: string } | undefined)[] | undefined) ?? [];
  return { desc: values.desc ?? '', links: links.map((link) => link?.value ?? '') };
}

export function noticeFromDraft(fields: DraftFields, empty: NoticeValues): NoticeValues {
  return {
    desc: fields.desc ?? empty.desc,
    links: fields.links ? fields.links.map((value) => ({ value })) : empty.links,
  };
}
