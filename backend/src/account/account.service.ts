import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { AccountContentChoice, Me } from '@techit/contract/api-types';
import { ACCOUNT_EXPORT_INTERVAL_HOURS } from '@techit/contract/limits';
import { AuthService } from '../auth/auth.service';
import type { AuthUser } from '../auth/auth-user';
import { PasswordHasher } from '../auth/password-hasher';
import { ConflictError, ForbiddenError, UnauthorizedError } from '../common/app-errors';
import type { UserRow } from '../database/database.types';
import { TransactionRunner } from '../database/transaction-runner';
import { NotificationsService } from '../notifications/notifications.service';
import { hotScore } from '../posts/hot-score';
import { PostsService } from '../posts/posts.service';
import { IMAGE_STORAGE, type ImageStorage } from '../uploads/image-storage';
import { ImageReleaseService } from '../uploads/image-release.service';
import { UsersService } from '../users/users.service';
import { AccountExportWriter } from './account-export.writer';
import { AccountRepository } from './account.repository';

const WRONG_PASSWORD = 'The password is wrong';
const EXPORT_INTERVAL_MS = ACCOUNT_EXPORT_INTERVAL_HOURS * 3600 * 1000;

/** An export, or how long until the next one may start. */
export type ExportStart = { archive: Readable; fileName: string } | { retryAfterSeconds: number };

/**
 * Accounts people control (issue 20, docs/decisions/049-accounts-people-control.md): a new
 * password that ends every other session, a new email, a data export once a day, and deleting the
 * account at once, its content deleted or anonymised, every counter kept exact.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly account: AccountRepository,
    private readonly auth: AuthService,
    private readonly hasher: PasswordHasher,
    private readonly users: UsersService,
    private readonly transactions: TransactionRunner,
    private readonly images: ImageReleaseService,
    private readonly notifications: NotificationsService,
    private readonly posts: PostsService,
    @Inject(IMAGE_STORAGE) private readonly storage: ImageStorage,
  ) {}

  /**
   * The new hash and a raised token_version in one statement: every token issued so far (this
   * request's too) answers 401 from now on, and the reply's fresh token keeps this session going.
   */
  async changePassword(me: AuthUser, current: string, next: string): Promise<string> {
    const user = await this.checkedUser(me, current, 'The current password is wrong');
    const version = await this.account.replacePassword(user.id, user.password_hash, await this.hasher.hash(next));
    // Another change won the race: this one's check was against a hash that is gone.
    if (version === undefined) throw new ForbiddenError('The current password is wrong');
    return this.auth.tokenFor(user.id, version);
  }

  async changeEmail(me: AuthUser, password: string, email: string): Promise<Me> {
    const user = await this.checkedUser(me, password, WRONG_PASSWORD);
    const taken = () =>
      new ConflictError('An account with that email already exists', {
        fields: { email: 'Another account already uses this email address.' },
      });
    if (await this.account.emailTakenByOther(user.id, email)) throw taken();
    try {
      await this.account.setEmail(user.id, email);
    } catch (error) {
      // Two accounts racing for one address: the unique index decides, the loser gets 409.
      if (await this.account.emailTakenByOther(user.id, email)) throw taken();
      throw error;
    }
    return this.users.getMe(user.id);
  }

  /** Claims the day's export first (one conditional upsert), then streams the archive. */
  async startExport(me: AuthUser): Promise<ExportStart> {
    const user = await this.account.findUser(me.id);
    if (!user) throw new UnauthorizedError('Your session has ended; please log in again');
    const now = new Date();
    const since = new Date(now.getTime() - EXPORT_INTERVAL_MS).toISOString();
    if (!(await this.account.claimExport(user.id, now.toISOString(), since))) {
      const last = (await this.account.lastExport(me.id)) ?? since;
      const wait = Date.parse(last) + EXPORT_INTERVAL_MS - now.getTime();
      return { retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    }
    const archive = new AccountExportWriter(this.account, this.storage).write({
      _id: user.id,
      userName: user.user_name,
      email: user.email,
      pic: user.pic,
      position: user.position,
      bio: user.bio,
      theme: user.theme,
      createdAt: user.created_at,
    });
    const day = now.toISOString().slice(0, 10);
    return { archive, fileName: `techit-${user.user_name}-${day}.zip` };
  }

  /**
   * The account goes at once, in one transaction: its likes, the notifications it caused, its
   * content (deleted, or handed to the "[deleted user]" account), its tag follows and the row
   * (sessions end: no row, no valid token). Counters of every post it touched are recounted from
   * the rows in that transaction. Images it let go of are freed after the commit (decision 011).
   */
  async deleteAccount(me: AuthUser, password: string, content: AccountContentChoice): Promise<void> {
    const user = await this.checkedUser(me, password, WRONG_PASSWORD);
    const { freed, notified } = await this.transactions.run(async (trx) => {
      await this.account.ensureDeletedUser(trx);
      const touched = await this.account.deleteLikes(user.id, trx);
      const notified = await this.account.withdrawNotificationsBy(user.id, trx);
      const freed = [user.pic];
      if (content === 'delete') {
        freed.push(...(await this.account.postPhotos(user.id, trx)));
        await this.account.deletePosts(user.id, trx);
        await this.account.deleteNotices(user.id, trx);
        // Newest first, so a reply of theirs goes before the comment of theirs it answers.
        const comments = await this.account.liveComments(user.id, trx);
        notified.push(
          ...(await this.account.withdrawUnreadOfComments(
            comments.map((row) => row.id),
            trx,
          )),
        );
        for (const comment of comments) {
          touched.push(comment.post_id);
          await this.posts.removeComment(comment, trx);
        }
      }
      touched.push(...(await this.account.handOver(user.id, content === 'anonymise', trx)));
      await this.account.releaseTagFollows(user.id, trx);
      await this.account.deleteUser(user.id, trx);
      for (const post of await this.account.recount(touched, trx)) {
        await this.account.setHotScore(post.id, hotScore(post), trx);
      }
      return { freed, notified };
    });
    await this.notifications.signal([...new Set(notified)].filter((id) => id !== user.id));
    await this.images.release(...freed);
  }

  /** The caller's account, once the password given is its password (403 otherwise; nothing changes). */
  private async checkedUser(me: AuthUser, password: string, wrong: string): Promise<UserRow> {
    const user = await this.account.findUser(me.id);
    const valid = await this.hasher.verify(user?.password_hash ?? null, password);
    if (!user) throw new UnauthorizedError('Your session has ended; please log in again');
    if (!valid) throw new ForbiddenError(wrong);
    return user;
  }
}
