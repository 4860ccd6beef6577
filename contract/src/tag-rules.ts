import { LIMITS } from './limits';

/** A tag's name once normalised: a lower-case letter or digit, then up to 29 of those or dashes. */
export const TAG_PATTERN = /^[a-z0-9][a-z0-9-]{0,29}$/;

/** What a person typed as a tag, as stored: trimmed, one leading `#` dropped, lower-cased. */
export function normaliseTag(raw: string): string {
  return raw.trim().replace(/^#/, '').toLowerCase();
}

export type TagsCheck = { ok: true; tags: string[] } | { ok: false; error: string };

/**
 * The one rule for a post's tags, used by the backend to validate and by the web app to show the
 * same answer before sending: each name normalised (normaliseTag), duplicates merged keeping the
 * first place, at most LIMITS.postTagsMax, each matching TAG_PATTERN. The error names the tag.
 */
export function normaliseTags(raw: readonly string[]): TagsCheck {
  const tags: string[] = [];
  for (const typed of raw) {
    const tag = normaliseTag(typed);
    if (!TAG_PATTERN.test(tag))
      return {
        ok: false,
        error: `Tag "${typed}" must be 1 to ${LIMITS.postTagMax} lower-case letters, digits or dashes, starting with a letter or digit`,
      };
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > LIMITS.postTagsMax)
    return { ok: false, error: `A post can have at most ${LIMITS.postTagsMax} tags` };
  return { ok: true, tags };
}
