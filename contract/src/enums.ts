export const FEEDS = ['for-you', 'following'] as const;
export type Feed = (typeof FEEDS)[number];
export const DEFAULT_FEED: Feed = 'for-you';

/** '' is "no category": a post may be created and saved without one (blank or missing). */
export const CATEGORIES = ['Doubt', 'Informative'] as const;
export type Category = (typeof CATEGORIES)[number];

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'light';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];
