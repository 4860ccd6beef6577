import { Injectable } from '@nestjs/common';
import type { Me, ProfileUser, UserReply } from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import type { Role, Theme } from '@techit/contract/enums';
import { AdminPolicy } from '../admin/admin-policy';
import { BLOCKED, BlockRules } from '../blocks/block-rules';
import { BlocksRepository } from '../blocks/blocks.repository';
import { BadRequestError, ConflictError, NotFoundError } from '../common/app-errors';
import { DELETED_USER_ID } from '../common/deleted-user';
import { parseObjectId } from '../common/object-id';
import type { UserUpdate } from '../database/database.types';
import { ImageReleaseService } from '../uploads/image-release.service';
import { TransactionRunner } from '../database/transaction-runner';
import { NotificationsService } from '../notifications/notifications.service';
import type { UserSuggestionsReply } from '@techit/contract/api-types';
import { USER_SUGGESTIONS } from '@techit/contract/limits';
import { toAuthor } from './users.mapper';
import { toMe, toProfileUser } from './users.mapper';
import { UsersRepository } from './users.repository';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly adminPolicy: AdminPolicy,
    private readonly images: ImageReleaseService,
    private readonly transactions: TransactionRunner,
    private readonly notifications: NotificationsService,
    private readonly blockRules: BlockRules,
    private readonly blocks: BlocksRepository,
  ) {}

  /**
   * GET /api/user/:id. A signed-in reader of someone else's profile also learns whether they
   * block and mute that user (the web app's controls); a visitor's reply never reads either, so
   * it stays the same for every visitor (the read cache keeps only token-less replies).
   */
  async getProfileReply(rawId: string, reader: AuthUser | null): Promise<UserReply> {
    const user = await this.getProfile(rawId);
    if (!reader || reader.id === user._id) return { user };
    return { user, viewer: await this.blocks.relationsWith(reader.id, user._id) };
  }

  async getProfile(rawId: string): Promise<ProfileUser> {
    const id = parseObjectId(rawId);
    // The placeholder account of deleted users is nobody's profile (common/deleted-user.ts).
    const row = id && id !== DELETED_USER_ID ? await this.users.findById(id) : undefined;
    if (!row) throw new NotFoundError("This user doesn't exist");
    const [followers, following] = await Promise.all([this.users.followerIds(row.id), this.users.followingIds(row.id)]);
    return toProfileUser(row, followers, following, this.adminPolicy.roleOf(row));
  }

  async getMe(userId: string): Promise<Me> {
    const row = await this.users.findById(userId);
    if (!row) throw new NotFoundError("This user doesn't exist");
    const [followers, following] = await Promise.all([this.users.followerIds(row.id), this.users.followingIds(row.id)]);
    return toMe(row, followers, following, this.adminPolicy.roleOf(row));
  }

  /** Throws 404 for an id that is malformed or names nobody. */
  async requireExisting(rawId: string | undefined): Promise<string> {
    const id = parseObjectId(rawId);
    if (!id || id === DELETED_USER_ID || !(await this.users.exists(id)))
      throw new NotFoundError("This user doesn't exist");
    return id;
  }

  async follow(meId: string, rawFollowId: string): Promise<Me> {
    const followId = parseObjectId(rawFollowId);
    if (followId === meId) throw new BadRequestError('You cannot follow yourself');
    const target = await this.requireExisting(rawFollowId);
    const at = new Date().toISOString();
    // The follow and its notification in one transaction; following twice notifies once.
    const notified = await this.transactions.run(async (trx) => {
      // Someone who blocks you cannot be followed (docs/decisions/048-blocks-and-mutes.md).
      await this.blockRules.refuseBlocked(meId, { owners: [{ userId: target, refusal: BLOCKED.follow }] }, trx);
      return (await this.users.follow(meId, target, at, trx))
        ? this.notifications.followed(trx, { followerId: meId, followeeId: target, at })
        : [];
    });
    await this.notifications.signal(notified);
    return this.getMe(meId);
  }

  async unfollow(meId: string, rawUnfollowId: string): Promise<Me> {
    if (parseObjectId(rawUnfollowId) === meId) throw new BadRequestError('You cannot unfollow yourself');
    const target = await this.requireExisting(rawUnfollowId);
    // An unread follow notification is withdrawn with the follow.
    const notified = await this.transactions.run(async (trx) =>
      (await this.users.unfollow(meId, target, trx))
        ? this.notifications.unfollowed(trx, { followerId: meId, followeeId: target })
        : [],
    );
    await this.notifications.signal(notified);
    return this.getMe(meId);
  }

  /**
   * @-mention suggestions (docs/decisions/039-notifications.md): a prefix of at least
   * USER_SUGGESTIONS.minPrefix characters after an optional `@`, any letter case. A shorter one
   * answers an empty list (not an error: the editor asks as the user types).
   */
  async suggest(
    rawPrefix: string | undefined,
    limit: number = USER_SUGGESTIONS.defaultSize,
  ): Promise<UserSuggestionsReply> {
    const prefix = (rawPrefix ?? '').trim().replace(/^@/, '').toLowerCase();
    if ([...prefix].length < USER_SUGGESTIONS.minPrefix) return { users: [] };
    return { users: (await this.users.suggest(prefix, limit)).map(toAuthor) };
  }

  /** The old picture is freed once the new one is saved, unless another row still shows it. */
  async updatePicture(meId: string, pic: string): Promise<Me> {
    const before = await this.users.findById(meId);
    const me = await this.updateProfile(meId, { pic });
    if (before && before.pic !== pic) await this.images.release(before.pic);
    return me;
  }

  updateBio(meId: string, bio: string): Promise<Me> {
    return this.updateProfile(meId, { bio });
  }

  updatePosition(meId: string, position: string): Promise<Me> {
    return this.updateProfile(meId, { position });
  }

  updateTheme(meId: string, theme: Theme): Promise<Me> {
    return this.updateProfile(meId, { theme });
  }

  /** Used by `npm run admin`; the effective role also counts ADMIN_USERNAMES. */
  async setStoredRole(userName: string, role: Role, from?: Role): Promise<Me> {
    const row = await this.users.findByUserName(userName);
    if (!row) throw new NotFoundError(`There is no user named "${userName}"`);
    // revoke-moderator takes back a moderator's role only (an admin stays an admin).
    if (from !== undefined && row.role !== from) {
      throw new ConflictError(`${row.user_name} has the stored role "${row.role}", not "${from}"; nothing changed`);
    }
    await this.users.update(row.id, { role, updated_at: new Date().toISOString() });
    return this.getMe(row.id);
  }

  private async updateProfile(meId: string, patch: UserUpdate): Promise<Me> {
    await this.users.update(meId, { ...patch, updated_at: new Date().toISOString() });
    return this.getMe(meId);
  }
}
