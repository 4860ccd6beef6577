import { Injectable } from '@nestjs/common';
import type { BlockReply, MuteReply, RelatedUsersReply } from '@techit/contract/api-types';
import { USER_RELATIONS } from '@techit/contract/limits';
import type { AuthUser } from '../auth/auth-user';
import { BadRequestError, NotFoundError } from '../common/app-errors';
import { decodeCursor, encodeCursor } from '../common/cursor';
import { parseObjectId } from '../common/object-id';
import { TransactionRunner } from '../database/transaction-runner';
import { NotificationsService } from '../notifications/notifications.service';
import { UsersRepository } from '../users/users.repository';
import { toRelatedUser } from './blocks.mapper';
import { BlocksRepository, type RelationKind } from './blocks.repository';
import type { RelationsQueryDto } from './dto/user-relation.dto';

/**
 * Blocks and mutes (docs/decisions/048-blocks-and-mutes.md): each idempotent, private to the user
 * who sets it (nobody is told, no route names another user's lists). A new block ends the follows
 * between the two, both ways, and withdraws the blocked user's unread notifications to the blocker,
 * in its own transaction; what a block forbids afterwards is
 * BlockRules', what a mute hides is the one condition in relation-filters.ts.
 */
@Injectable()
export class BlocksService {
  constructor(
    private readonly relations: BlocksRepository,
    private readonly users: UsersRepository,
    private readonly transactions: TransactionRunner,
    private readonly notifications: NotificationsService,
  ) {}

  async block(me: AuthUser, rawUserId: string): Promise<BlockReply> {
    const other = await this.requireOther(me, rawUserId, 'block');
    const at = new Date().toISOString();
    const notified = await this.transactions.run(async (trx) => {
      if (!(await this.relations.add('blocks', me.id, other, at, trx))) return [];
      // The follows between the two end with the block, and their unread notifications with them.
      const withdrawn: string[] = [];
      for (const [followerId, followeeId] of [
        [me.id, other],
        [other, me.id],
      ]) {
        if (await this.users.unfollow(followerId, followeeId, trx))
          withdrawn.push(...(await this.notifications.unfollowed(trx, { followerId, followeeId })));
      }
      // Whatever else the blocked user caused that the blocker has not read yet goes too.
      withdrawn.push(...(await this.notifications.blocked(trx, { blockerId: me.id, blockedId: other })));
      return [...new Set(withdrawn)];
    });
    await this.notifications.signal(notified);
    return { userId: other, blocked: true };
  }

  async unblock(me: AuthUser, rawUserId: string): Promise<BlockReply> {
    const other = await this.requireOther(me, rawUserId, 'unblock');
    await this.relations.remove('blocks', me.id, other);
    return { userId: other, blocked: false };
  }

  async mute(me: AuthUser, rawUserId: string): Promise<MuteReply> {
    const other = await this.requireOther(me, rawUserId, 'mute');
    await this.relations.add('mutes', me.id, other, new Date().toISOString());
    return { userId: other, muted: true };
  }

  async unmute(me: AuthUser, rawUserId: string): Promise<MuteReply> {
    const other = await this.requireOther(me, rawUserId, 'unmute');
    await this.relations.remove('mutes', me.id, other);
    return { userId: other, muted: false };
  }

  /** The caller's own list, newest first, by cursor. */
  async list(me: AuthUser, kind: RelationKind, query: RelationsQueryDto): Promise<RelatedUsersReply> {
    const limit = query.limit ?? USER_RELATIONS.defaultLimit;
    const after = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
    const rows = await this.relations.page(kind, me.id, { limit: limit + 1, after });
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      users: shown.map(toRelatedUser),
      nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.other_id }) : null,
    };
  }

  /** The other user's id: 400 when malformed or the caller's own, 404 when nobody has it. */
  private async requireOther(me: AuthUser, rawUserId: string, verb: string): Promise<string> {
    const id = parseObjectId(rawUserId);
    if (!id) throw new BadRequestError('userId must be a user id');
    if (id === me.id) throw new BadRequestError(`You cannot ${verb} yourself`);
    if (!(await this.users.exists(id))) throw new NotFoundError("This user doesn't exist");
    return id;
  }
}
