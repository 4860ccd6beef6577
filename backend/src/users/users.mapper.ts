import type { Author, Me, ProfileUser } from '@techit/contract/api-types';
import type { Role, Theme } from '@techit/contract/enums';
import type { UserRow } from '../database/database.types';

/** Rows become API shapes here and only here: no hash, and the email only for its owner. */
export function toProfileUser(row: UserRow, followers: string[], following: string[], role: Role): ProfileUser {
  return {
    _id: row.id,
    userName: row.user_name,
    pic: row.pic,
    position: row.position,
    bio: row.bio,
    followers,
    following,
    role,
    createdAt: row.created_at,
  };
}

export function toMe(row: UserRow, followers: string[], following: string[], role: Role): Me {
  return { ...toProfileUser(row, followers, following, role), email: row.email, theme: row.theme as Theme };
}

export function toAuthor(row: { id: string; user_name: string; pic: string }): Author {
  return { _id: row.id, userName: row.user_name, pic: row.pic };
}
