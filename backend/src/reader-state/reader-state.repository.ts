import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';
import { PreparedQuery } from '../database/prepared-query';
import type { TokenAccount } from '../auth/token-accounts';

/** What a signed-in reader's own state is among the posts of one cached reply. */
export interface ReaderState {
  /** Their account as it is now (undefined: gone), for the token's checks (TokenAccounts). */
  account: TokenAccount | undefined;
  /**
   * Null when the reader mutes no user and no tag and blocks no one; else a hash of what they mute
   * and block. Such a reader's replies are not a visitor's plus likes and
   * bookmarks (lists leave muted posts out, comments carry `muted`, a profile `viewer`): they are
   * kept per reader and per this text, so a new mute or block reaches a reply not yet kept.
   */
  filters: string | null;
  liked: Set<string>;
  bookmarked: Set<string>;
}

/**
 * One row per fact: 'a' the account (role in post_id, user_name in name, token_version in
 * version), 'm' a muted user, 'k' a blocked user, 't' a muted tag (each in post_id), 'l' a liked
 * post, 'b' a saved post.
 */
type Row = { kind: string; post_id: string | null; name: string | null; version: number | null };

/**
 * The cached signed-in read's one statement (docs/decisions/053-signed-in-read-cache.md): the
 * reader's account (what the JWT strategy reads on every request), whether they have personal
 * filters, and which of a reply's posts they like and saved; one statement, not four, because
 * the statement's own cost (a read transaction, the driver) was most of a cached read. Each part
 * probes a primary key or the user's own few rows: likes (user_id, post_id) through
 * likes_user_idx, bookmarks' primary key (user_id, post_id), mutes' and blocks' (user_id, other_id),
 * tag_prefs (user_id, tag).
 */
@Injectable()
export class ReaderStateRepository {
  /** One prepared statement per number of posts (a page has up to 100; most have 4–20). */
  private readonly byCount = new Map<number, PreparedQuery<Record<string, string>, Row>>();

  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async stateAmong(userId: string, postIds: readonly string[]): Promise<ReaderState> {
    const rows = await this.queryFor(postIds.length).rows(this.db, paramsOf(userId, postIds));
    const state: ReaderState = { account: undefined, filters: null, liked: new Set(), bookmarked: new Set() };
    const filters: string[] = [];
    for (const row of rows) {
      if (row.kind === 'a') {
        state.account = {
          id: userId,
          role: row.post_id ?? '',
          user_name: row.name ?? '',
          token_version: Number(row.version),
        };
      } else if (row.kind === 'm' || row.kind === 'k' || row.kind === 't') filters.push(`${row.kind}:${row.post_id}`);
      else if (row.kind === 'l') state.liked.add(row.post_id ?? '');
      else state.bookmarked.add(row.post_id ?? '');
    }
    // Hashed: a reader may mute many; the text is part of a cache key.
    if (filters.length > 0) state.filters = createHash('sha1').update(filters.sort().join(' ')).digest('base64url');
    return state;
  }

  private queryFor(count: number): PreparedQuery<Record<string, string>, Row> {
    let query = this.byCount.get(count);
    if (!query) {
      query = new PreparedQuery((ex, p: Record<string, string>) => {
        const ids = Array.from({ length: count }, (_, index) => p[`post${index}`]);
        const none = { name: sql<string | null>`null`.as('name'), version: sql<number | null>`null`.as('version') };
        const account = ex
          .selectFrom('users')
          .select([
            sql<string>`'a'`.as('kind'),
            sql<string | null>`users.role`.as('post_id'),
            sql<string | null>`users.user_name`.as('name'),
            sql<number | null>`users.token_version`.as('version'),
          ])
          .where('users.id', '=', p.user);
        // Mutes and blocks have one shape (user_id, other_id), as have likes and bookmarks (user_id, post_id).
        const others = (table: 'mutes' | 'blocks', kind: 'm' | 'k') =>
          ex
            .selectFrom(table)
            .select([
              sql<string>`${sql.lit(kind)}`.as('kind'),
              sql<string | null>`other_id`.as('post_id'),
              none.name,
              none.version,
            ])
            .where('user_id', '=', p.user);
        const amongIds = (table: 'likes' | 'bookmarks', kind: 'l' | 'b') =>
          ex
            .selectFrom(table)
            .select([
              sql<string>`${sql.lit(kind)}`.as('kind'),
              sql<string | null>`post_id`.as('post_id'),
              none.name,
              none.version,
            ])
            .where('user_id', '=', p.user)
            .where('post_id', 'in', ids);
        const mutedTags = ex
          .selectFrom('tag_prefs')
          .select([
            sql<string>`'t'`.as('kind'),
            sql<string | null>`tag_prefs.tag`.as('post_id'),
            none.name,
            none.version,
          ])
          .where('tag_prefs.user_id', '=', p.user)
          .where('tag_prefs.kind', '=', 'mute');
        const accountAndFilters = account
          .unionAll(others('mutes', 'm'))
          .unionAll(others('blocks', 'k'))
          .unionAll(mutedTags);
        if (count === 0) return accountAndFilters;
        return accountAndFilters.unionAll(amongIds('likes', 'l')).unionAll(amongIds('bookmarks', 'b'));
      });
      this.byCount.set(count, query);
    }
    return query;
  }
}

function paramsOf(userId: string, postIds: readonly string[]): Record<string, string> {
  const params: Record<string, string> = { user: userId };
  postIds.forEach((id, index) => (params[`post${index}`] = id));
  return params;
}
