import type { Notice } from '@techit/contract/api-types';
import { shownAuthor } from '../common/deleted-user';
import { storedHtml } from '../markdown/stored-html';
import type { NoticeWithAuthor } from './notices.repository';

function stringList(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}

export function toNotice(row: NoticeWithAuthor): Notice {
  return {
    _id: row.id,
    desc: row.description,
    descHtml: storedHtml(row.desc_html, row.description),
    links: stringList(row.links),
    tags: stringList(row.tags),
    postedBy: shownAuthor({ _id: row.author_id, userName: row.author_user_name, pic: row.author_pic }),
    createdAt: row.created_at,
  };
}
