import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { PreparedQuery } from '../database/prepared-query';
import { DATABASE } from '../database/database.tokens';
import type { Db, Executor, NewUser, UserRow, UserUpdate } from '../database/database.types';

/** The only place that reads or writes users and follows. */
@Injectable()
export class UsersRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  // Read on every authenticated request (JwtStrategy): built once, see PreparedQuery. selectAll
  // brings token_version too, so checking a token's version costs no extra statement.
  private readonly byId = new PreparedQuery((ex, p: { id: string }) =>
    ex.selectFrom('users').selectAll().where('id', '=', p.id),
  );

  findById(id: string, ex: Executor = this.db): Promise<UserRow | undefined> {
    return this.byId.first(ex, { id });
  }

  /** Sign-in accepts the userName or the email, in any letter case. */
  findByLogin(login: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb(sql`lower(user_name)`, '=', userNameKey(login)), eb('email_key', '=', emailKey(login))]))
      .executeTakeFirst();
  }

  findByUserName(userName: string, ex: Executor = this.db): Promise<UserRow | undefined> {
    return ex
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(user_name)`, '=', userNameKey(userName))
      .executeTakeFirst();
  }

  /** The ids of the users with these names (any letter case), keyed by lowercased name: one query. */
  async idsByUserNames(userNames: readonly string[], ex: Executor = this.db): Promise<Map<string, string>> {
    if (userNames.length === 0) return new Map();
    const rows = await ex
      .selectFrom('users')
      .select(['id', 'user_name'])
      .where(sql`lower(user_name)`, 'in', [...new Set(userNames.map(userNameKey))])
      .execute();
    return new Map(rows.map((row) => [userNameKey(row.user_name), row.id]));
  }

  async takenFields(userName: string, email: string): Promise<{ userName: boolean; email: boolean }> {
    const rows = await this.db
      .selectFrom('users')
      .select(['user_name', 'email_key'])
      .where((eb) =>
        eb.or([eb(sql`lower(user_name)`, '=', userNameKey(userName)), eb('email_key', '=', emailKey(email))]),
      )
      .execute();
    return {
      userName: rows.some((row) => userNameKey(row.user_name) === userNameKey(userName)),
      email: rows.some((row) => row.email_key === emailKey(email)),
    };
  }

  async insert(user: Omit<NewUser, 'email_key'>): Promise<void> {
    await this.db
      .insertInto('users')
      .values({ ...user, email_key: emailKey(user.email) })
      .execute();
  }

  async update(id: string, patch: UserUpdate, ex: Executor = this.db): Promise<void> {
    await ex.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /**
   * An imported bcrypt hash becomes argon2id after a sign-in proved the password. Only if it is
   * still the hash that was checked: two sign-ins racing both succeed, and the first write stays.
   */
  async replacePasswordHash(id: string, checkedHash: string, newHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: newHash })
      .where('id', '=', id)
      .where('password_hash', '=', checkedHash)
      .execute();
  }

  /** One statement, so two devices signing out everywhere at once both count. */
  async bumpTokenVersion(id: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async exists(id: string, ex: Executor = this.db): Promise<boolean> {
    return (await ex.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async followerIds(userId: string, ex: Executor = this.db): Promise<string[]> {
    const rows = await ex
      .selectFrom('follows')
      .select('follower_id')
      .where('followee_id', '=', userId)
      .orderBy('created_at')
      .orderBy('follower_id')
      .execute();
    return rows.map((row) => row.follower_id);
  }

  async followingIds(userId: string, ex: Executor = this.db): Promise<string[]> {
    const rows = await ex
      .selectFrom('follows')
      .select('followee_id')
      .where('follower_id', '=', userId)
      .orderBy('created_at')
      .orderBy('followee_id')
      .execute();
    return rows.map((row) => row.followee_id);
  }

  /** Following twice is a no-op, not an error. True when the follow is new. */
  async follow(followerId: string, followeeId: string, createdAt: string, ex: Executor = this.db): Promise<boolean> {
    const result = await ex
      .insertInto('follows')
      .values({ follower_id: followerId, followee_id: followeeId, created_at: createdAt })
      .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** True when there was a follow to take back. */
  async unfollow(followerId: string, followeeId: string, ex: Executor = this.db): Promise<boolean> {
    const result = await ex
      .deleteFrom('follows')
      .where('follower_id', '=', followerId)
      .where('followee_id', '=', followeeId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * @-mention suggestions: userNames starting with `prefix` (lower-case), in name order. A range on
   * lower(user_name) (`users_user_name_lower_key` serves it on both databases) rather than LIKE,
   * whose index use depends on the collation; the prefix check after it keeps the answer exact
   * under any collation.
   */
  async suggest(prefix: string, limit: number): Promise<UserRow[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(user_name)`, '>=', prefix)
      .where(sql`lower(user_name)`, '<', `${prefix}\u{10FFFF}`)
      .orderBy(sql`lower(user_name)`)
      .limit(limit)
      .execute();
    return rows.filter((row) => userNameKey(row.user_name).startsWith(prefix));
  }
}

/** userNames are ASCII by rule; SQL lower() and this agree on them on both databases. */
export function userNameKey(userName: string): string {
  return userName.toLowerCase();
}

/** Emails compare NFC-normalised and Unicode lower-cased, computed here so both databases agree. */
export function emailKey(email: string): string {
  return email.normalize('NFC').toLowerCase();
}
