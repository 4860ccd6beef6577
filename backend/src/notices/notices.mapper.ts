import { type Notice, REMOVED_AUTHOR } from '@techit/contract/api-types';
import type { Role } from '@techit/contract/enums';
import { seesRemoved } from '../admin/admin-policy';
import { shownAuthor } from '../common/deleted-user';
import { storedHtml } from '../markdown/stored-html';
import type { NoticeWithAuthor } from './notices.repository';

function stringList(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * A notice as `viewer` reads it: one the moderators removed stays in its place, whole for its
 * author and the moderators, else with no text and no author (decision 047).
 */
export function toNotice(row: NoticeWithAuthor, viewer: { id: string; role: Role } | null): Notice {
  if (row.removed_at !== null && !seesRemoved(viewer, row.author_id)) {
    return {
      _id: row.id,
      removed: true,
      desc: '',
      descHtml: '',
      links: [],
      tags: [],
      postedBy: REMOVED_AUTHOR,
      createdAt: row.created_at,
    };
  }
  return {
    ...(row.removed_at !== null ? { removed: true } : {}),
    _id: row.id,
    desc: row.description,
    descHtml: storedHtml(row.desc_html, row.description),
    links: stringList(row.links),
    tags: stringList(row.tags),
    postedBy: shownAuthor({ _id: row.author_id, userName: row.author_user_name, pic: row.author_pic }),
    createdAt: row.created_at,
  };
}
