import { Inject, Injectable } from '@nestjs/common';
import { type SqlBool, sql } from 'kysely';
import { authorNotMutedBy } from '../blocks/relation-filters';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';
import type { SearchQuery } from './search-query.parser';
import { DELETED_USER_ID } from '../common/deleted-user';

export interface NoticeHitRow {
  id: string;
  description: string;
  author_id: string;
  author_user_name: string;
  author_pic: string;
  created_at: string;
}

export interface UserHitRow {
  id: string;
  user_name: string;
  pic: string;
  position: string;
  bio: string;
}

/** `%` and `_` never reach a pattern from a token (letters and digits only); this is for the phrase's spaces. */
function contains(tokens: string[]): string {
  return `%${tokens.join(' ')}%`;
}

/**
 * Notices and users: the same SQL on both databases (LIKE over lower-cased text), because both
 * are small beside posts — a notice is a line or two, a user's text a bio — and each page stops
 * at its limit; docs/decisions/034-search.md has the figures.
 */
@Injectable()
export class SearchRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** `mutedBy`: the notices of the users that reader mutes are left out (decision 048). */
  notices(query: SearchQuery, offset: number, limit: number, mutedBy?: string): Promise<NoticeHitRow[]> {
    let select = this.db
      .selectFrom('notices')
      .innerJoin('users', 'users.id', 'notices.author_id')
      .select([
        'notices.id',
        'notices.description',
        'notices.author_id',
        'users.user_name as author_user_name',
        'users.pic as author_pic',
        'notices.created_at',
      ])
      // A notice the moderators removed leaves search (decision 047).
      .where('notices.removed_at', 'is', null);
    for (const term of query.terms) {
      const like = sql<SqlBool>`lower(notices.description) like ${contains(term.tokens)}`;
      select = select.where(term.negated ? sql<SqlBool>`not (${like})` : like);
    }
    if (query.author) select = select.where(sql<SqlBool>`lower(users.user_name) = ${query.author.toLowerCase()}`);
    if (mutedBy !== undefined) select = select.where(authorNotMutedBy(mutedBy, sql.ref<string>('notices.author_id')));
    return select
      .orderBy('notices.created_at', 'desc')
      .orderBy('notices.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Every word in the userName (from its start), the position or the bio; userName hits first. */
  users(query: SearchQuery, offset: number, limit: number): Promise<UserHitRow[]> {
    let select = this.db
      .selectFrom('users')
      .select(['id', 'user_name', 'pic', 'position', 'bio'])
      // The placeholder account of deleted users is nobody to find (common/deleted-user.ts).
      .where('id', '<>', DELETED_USER_ID);
    for (const term of query.terms) {
      // A userName's dots, dashes and underscores split it into several tokens: any may stand between.
      const hit = sql<SqlBool>`(lower(user_name) like ${`${term.tokens.join('%')}%`} or lower(position) like ${contains(term.tokens)}
        or lower(bio) like ${contains(term.tokens)})`;
      select = select.where(term.negated ? sql<SqlBool>`not ${hit}` : hit);
    }
    const first = query.terms.find((term) => !term.negated)?.tokens.join('%') ?? '';
    if (query.author) select = select.where(sql<SqlBool>`lower(user_name) = ${query.author.toLowerCase()}`);
    return select
      .orderBy(
        sql`case when lower(user_name) = ${first.replaceAll('%', '_')} then 0 when lower(user_name) like ${`${first}%`} then 1 else 2 end`,
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
