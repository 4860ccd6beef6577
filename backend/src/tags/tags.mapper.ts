import type { Tag } from '@techit/contract/api-types';
import type { TagPref, TagRow } from './tags.repository';

export function toTag(row: TagRow, pref: TagPref | undefined): Tag {
  return {
    name: row.name,
    postsCount: Number(row.posts_count),
    followersCount: Number(row.followers_count),
    following: pref === 'follow',
    muted: pref === 'mute',
  };
}
