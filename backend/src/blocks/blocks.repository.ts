import { Inject, Injectable } from '@nestjs/common';
import type { Keyset } from '../common/cursor';
import { DATABASE } from '../database/database.tokens';
import type { Db, Executor } from '../database/database.types';

/** Which of the two lists: whom the user blocks, or whom they mute. */
export type RelationKind = 'blocks' | 'mutes';

/** One row of a user's list, with the other user's public face. */
export interface RelatedUserRow {
  other_id: string;
  created_at: string;
  user_name: string;
  pic: string;
}

/** The only place that reads or writes blocks and mutes (docs/decisions/048-blocks-and-mutes.md). */
@Injectable()
export class BlocksRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** True when the row is new; a second block (or mute) keeps the first and its time. */
  async add(kind: RelationKind, userId: string, otherId: string, at: string, ex: Executor = this.db): Promise<boolean> {
    const result = await ex
      .insertInto(kind)
      .values({ user_id: userId, other_id: otherId, created_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'other_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** True when there was a row to take back. */
  async remove(kind: RelationKind, userId: string, otherId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom(kind)
      .where('user_id', '=', userId)
      .where('other_id', '=', otherId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Those of `userIds` who block `actorId`, with their names (for the refusal's sentence): one
   * statement on (other_id, user_id), however many people a write reaches.
   */
  blockersAmong(actorId: string, userIds: readonly string[], ex: Executor = this.db) {
    if (userIds.length === 0) return Promise.resolve([]);
    return ex
      .selectFrom('blocks')
      .innerJoin('users', 'users.id', 'blocks.user_id')
      .select(['blocks.user_id', 'users.user_name'])
      .where('blocks.other_id', '=', actorId)
      .where('blocks.user_id', 'in', [...new Set(userIds)])
      .execute();
  }

  /** Whether `userId` blocks and whether they mute `otherId`: one statement, two primary-key probes. */
  async relationsWith(userId: string, otherId: string): Promise<{ blocks: boolean; mutes: boolean }> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .exists(
            eb
              .selectFrom('blocks')
              .select('blocks.user_id')
              .where('blocks.user_id', '=', userId)
              .where('blocks.other_id', '=', otherId),
          )
          .as('blocks'),
        eb
          .exists(
            eb
              .selectFrom('mutes')
              .select('mutes.user_id')
              .where('mutes.user_id', '=', userId)
              .where('mutes.other_id', '=', otherId),
          )
          .as('mutes'),
      ])
      .executeTakeFirstOrThrow();
    // SQLite answers 0/1, PostgreSQL true/false.
    return { blocks: Boolean(row.blocks), mutes: Boolean(row.mutes) };
  }

  /** The user's list, newest first by (created_at, other_id) after `after` (…_user_created_idx). */
  page(kind: RelationKind, userId: string, page: { limit: number; after?: Keyset }): Promise<RelatedUserRow[]> {
    let query = this.db
      .selectFrom(kind)
      .innerJoin('users', 'users.id', `${kind}.other_id`)
      .select([`${kind}.other_id as other_id`, `${kind}.created_at as created_at`, 'users.user_name', 'users.pic'])
      .where(`${kind}.user_id`, '=', userId);
    if (page.after) {
      const { createdAt, id } = page.after;
      query = query.where((eb) =>
        eb(eb.refTuple(`${kind}.created_at`, `${kind}.other_id`), '<', eb.tuple(createdAt, id)),
      );
    }
    return query.orderBy(`${kind}.created_at`, 'desc').orderBy(`${kind}.other_id`, 'desc').limit(page.limit).execute();
  }
}
