import type { RelatedUser } from '@techit/contract/api-types';
import type { RelatedUserRow } from './blocks.repository';

export function toRelatedUser(row: RelatedUserRow): RelatedUser {
  return { _id: row.other_id, userName: row.user_name, pic: row.pic, since: row.created_at };
}
