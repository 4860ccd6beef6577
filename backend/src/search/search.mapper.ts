import type { NoticeSearchResult, PostSearchResult, UserSearchResult } from '@techit/contract/api-types';
import { shownAuthor } from '../common/deleted-user';
import type { PostHitRow } from './post-search.repository';
import { buildSnippet, type SnippetWords } from './search-snippet';
import type { NoticeHitRow, UserHitRow } from './search.repository';

function author(row: { author_id: string; author_user_name: string; author_pic: string }) {
  return shownAuthor({ _id: row.author_id, userName: row.author_user_name, pic: row.author_pic });
}

export function toPostResult(row: PostHitRow, words: SnippetWords, tags: string[]): PostSearchResult {
  return {
    _id: row.id,
    title: row.title,
    snippet: buildSnippet([row.description, row.body], words),
    postedBy: author(row),
    tags,
    likesCount: Number(row.likes_count),
    commentsCount: Number(row.comments_count),
    createdAt: row.created_at,
  };
}

export function toNoticeResult(row: NoticeHitRow, words: SnippetWords): NoticeSearchResult {
  return {
    _id: row.id,
    snippet: buildSnippet([row.description], words),
    postedBy: author(row),
    createdAt: row.created_at,
  };
}

export function toUserResult(row: UserHitRow): UserSearchResult {
  return { _id: row.id, userName: row.user_name, pic: row.pic, position: row.position, bio: row.bio };
}
