import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE } from '../database/database.tokens';
import type { Db, Executor } from '../database/database.types';
import { emailKey, userNameKey } from '../users/users.repository';

/** The account a reset is for: what the mail and the admin command need, nothing more. */
export interface ResetAccount {
  id: string;
  user_name: string;
  email: string;
}

@Injectable()
export class PasswordResetRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** Compared as sign-up and sign-in compare emails (email_key: NFC, lower case). */
  accountByEmail(email: string): Promise<ResetAccount | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'user_name', 'email'])
      .where('email_key', '=', emailKey(email))
      .executeTakeFirst();
  }

  accountByUserName(userName: string): Promise<ResetAccount | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'user_name', 'email'])
      .where(sql`lower(user_name)`, '=', userNameKey(userName))
      .executeTakeFirst();
  }

  /** A new link's row; the user's links that expired before `now` go at the same time. */
  async insert(tokenHash: string, userId: string, now: string, expiresAt: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('password_resets').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
      await trx
        .insertInto('password_resets')
        .values({ token_hash: tokenHash, user_id: userId, created_at: now, expires_at: expiresAt })
        .execute();
    });
  }

  /** Whether a link is still good at `now` (read before the password is hashed, which is slow). */
  async isLive(tokenHash: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('password_resets')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Uses a link up: deletes it if still good at `now` and answers its user, else undefined. One
   * statement, so of two confirmations racing with the same link only one gets the user.
   */
  async take(tokenHash: string, now: string, ex: Executor): Promise<string | undefined> {
    const row = await ex
      .deleteFrom('password_resets')
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Every other link of the user goes too: a new password makes older mails worthless. */
  async deleteAllOf(userId: string, ex: Executor): Promise<void> {
    await ex.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  }

  /** The new password, and every token issued so far stops working (token_version, decision 013). */
  async setPasswordEndingSessions(userId: string, passwordHash: string, ex: Executor): Promise<void> {
    await ex
      .updateTable('users')
      .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1) }))
      .where('id', '=', userId)
      .execute();
  }
}
