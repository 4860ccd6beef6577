import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '../database/database.tokens';
import type { Db, IdempotencyKeyRow } from '../database/database.types';

/** Which key: a user's key is scoped to one route. */
export interface KeyId {
  userId: string;
  route: string;
  key: string;
}

/** The only place that reads or writes idempotency_keys. */
@Injectable()
export class IdempotencyRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /**
   * Inserts an in-progress row for the key unless one exists; true when this call inserted it. The
   * primary key decides between simultaneous requests: exactly one of them gets true.
   */
  async claim(id: KeyId, requestHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_keys')
      .values({ user_id: id.userId, route: id.route, key: id.key, request_hash: requestHash, created_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'route', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  find(id: KeyId): Promise<IdempotencyKeyRow | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', id.userId)
      .where('route', '=', id.route)
      .where('key', '=', id.key)
      .executeTakeFirst();
  }

  /**
   * Makes an existing row this request's claim (an expired key, or an in-progress one whose request
   * died), but only if it is still the row that was read (same created_at): of two requests taking
   * over at once, one wins.
   */
  async takeOver(id: KeyId, seenCreatedAt: string, requestHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ request_hash: requestHash, status: null, response: null, created_at: now })
      .where('user_id', '=', id.userId)
      .where('route', '=', id.route)
      .where('key', '=', id.key)
      .where('created_at', '=', seenCreatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(id: KeyId, status: number, response: string): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status, response })
      .where('user_id', '=', id.userId)
      .where('route', '=', id.route)
      .where('key', '=', id.key)
      .execute();
  }

  /** Frees the key of a request that failed, so that the same key may be sent again. */
  async release(id: KeyId): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', id.userId)
      .where('route', '=', id.route)
      .where('key', '=', id.key)
      .where('status', 'is', null)
      .execute();
  }

  async deleteOlderThan(cutoff: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
  }
}
