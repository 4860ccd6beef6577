import { TAG_SUGGESTIONS } from '@techit/contract/limits';
import { pageQuery } from './cursor-pages';

/** How the viewer stands towards a tag, and the call that changes it. */
export type TagPreference = 'follow' | 'unfollow' | 'mute' | 'unmute';

/**
 * The API addresses of the tag routes, each built in one place: the editor's autocomplete
 * (components/tag-input.tsx), the tag page (features/tags) and the boot script's first requests
 * (app/first-requests.ts) use them, so a preloaded reply and the app's request name the same URL.
 * No browser code: the build imports it.
 */
export const tagPaths = {
  /** GET /api/tags?prefix=…&limit=…: used tags starting so, most-used first ('' : every tag). */
  suggestions: (prefix: string, limit: number = TAG_SUGGESTIONS.defaultSize) => `/tags?${pageQuery({ prefix, limit })}`,
  /** GET /api/tags/:name */
  tag: (name: string) => `/tags/${encodeURIComponent(name)}`,
  /** PUT /api/tags/:name/follow|unfollow|mute|unmute */
  preference: (name: string, change: TagPreference) => `/tags/${encodeURIComponent(name)}/${change}`,
};
