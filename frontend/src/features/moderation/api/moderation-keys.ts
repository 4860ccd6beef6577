/** The query keys of the moderation screens (the admin area and the public log). */
export const moderationKeys = {
  all: ['moderation'] as const,
  queue: (status: 'open' | 'resolved') => ['moderation', 'queue', status] as const,
  users: (q: string) => ['moderation', 'users', q] as const,
  log: ['moderation', 'log'] as const,
};
