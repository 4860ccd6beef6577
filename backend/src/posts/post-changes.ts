import type { RevisedField, RevisionChanges } from '@techit/contract/api-types';

/** Every field as text: `tags` comma-joined in the post's order. */
export type RevisedValues = Record<RevisedField, string>;

/** The order a revision lists its fields in (the edit form's order). */
const FIELDS: readonly RevisedField[] = ['title', 'desc', 'body', 'category', 'tags', 'link1', 'link2', 'photo'];

/**
 * The fields that differ between the post before and after an edit, or null when none does (an
 * edit that changes nothing records no revision: see docs/decisions/027-post-revisions.md).
 */
export function changedFields(before: RevisedValues, after: RevisedValues): RevisionChanges | null {
  const changes: RevisionChanges = {};
  let changed = false;
  for (const field of FIELDS) {
    if (before[field] !== after[field]) {
      changes[field] = { from: before[field], to: after[field] };
      changed = true;
    }
  }
  return changed ? changes : null;
}
