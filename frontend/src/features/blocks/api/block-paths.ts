/** The API addresses of blocks and mutes (docs/decisions/048-blocks-and-mutes.md), built in one place. */
export const blockPaths = {
  /** PUT /api/block, /api/unblock, /api/mute, /api/unmute */
  change: (action: RelationAction) => `/${action}`,
  /** GET /api/blocks or /api/mutes, a page of them */
  list: (kind: RelationKind, query: string) => `/${kind}${query ? `?${query}` : ''}`,
};

export type RelationAction = 'block' | 'unblock' | 'mute' | 'unmute';
/** Whom the reader blocks, or whom they mute. */
export type RelationKind = 'blocks' | 'mutes';
