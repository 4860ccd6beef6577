import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  Notification,
  NotificationSettings,
  NotificationsReply,
  StreamTicketReply,
  UnreadCountReply,
} from '@techit/contract/api-types';
import { NOTIFICATION_KINDS, type NotificationKind } from '@techit/contract/enums';
import { NOTIFICATIONS } from '@techit/contract/limits';
import { BadRequestError } from '../common/app-errors';
import { decodeCursor, encodeCursor, type Keyset } from '../common/cursor';
import { newObjectId, parseObjectId } from '../common/object-id';
import { likeGroupId } from './like-group-id';
import type { Executor } from '../database/database.types';
import { TransactionRunner } from '../database/transaction-runner';
import type { NotificationsQueryDto } from './dto/notifications-query.dto';
import { NotificationSignals } from './notification-signals';
import { toNotification, toSettings } from './notifications.mapper';
import { type NotificationWithTarget, NotificationsRepository } from './notifications.repository';

/** What a notification points at, besides its recipient and actor. */
interface Target {
  post_id?: string;
  comment_id?: string;
  notice_id?: string;
}

/** A comment written, as the notification rules need it. */
export interface CommentEvent {
  postId: string;
  postAuthorId: string;
  commentId: string;
  /** The comment it answers, or null at the top of the thread. */
  parentId: string | null;
  actorId: string;
  /** The users its text mentions (MarkdownService.renderWithMentions). */
  mentionedIds: readonly string[];
  at: string;
}

/**
 * The notification rules (docs/decisions/039-notifications.md). The write methods take the source's
 * transaction (the like, the comment, the follow…) and answer whose notifications changed; the
 * caller hands those to `signal` once that transaction has committed.
 *
 * - never for your own action;
 * - one notification per event per person: reply > comment > mention;
 * - a kind the recipient switched off is not written (no fallback to a lower kind), nor anything
 *   from an actor the recipient mutes (decision 048);
 * - likes group per (recipient, post): a new liker joins the group, which becomes unread and moves
 *   up; actorsCount counts every liker since the group started (minus those who took their like
 *   back while it was unread); a liker already in the group raises nothing (no like/unlike spam);
 * - undoing the source (unlike, comment removed, unfollow) withdraws what is still unread, and so
 *   does a block, for everything the blocked user caused.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly signals: NotificationSignals,
    private readonly transactions: TransactionRunner,
  ) {}

  // ---- writes, inside the source's transaction ----

  async liked(trx: Executor, event: { postId: string; postAuthorId: string; actorId: string; at: string }) {
    const { postId, postAuthorId, actorId, at } = event;
    if (postAuthorId === actorId) return [];
    // One upsert decides everything (switched off, new group, new liker, liker already there).
    const changed = await this.notifications.joinLikeGroup(
      { id: likeGroupId(postAuthorId, postId), userId: postAuthorId, postId, actorId, createdAt: at },
      trx,
    );
    return changed ? [postAuthorId] : [];
  }

  /** The liker leaves the group if it is still unread (the group goes with its last liker). */
  async unliked(trx: Executor, event: { postId: string; postAuthorId: string; actorId: string }) {
    const { postId, postAuthorId, actorId } = event;
    if (postAuthorId === actorId) return [];
    return (await this.notifications.leaveLikeGroup(likeGroupId(postAuthorId, postId), actorId, trx))
      ? [postAuthorId]
      : [];
  }

  /** A new comment or reply: the parent comment's author, the post's author, the mentioned. */
  async commented(trx: Executor, event: CommentEvent): Promise<string[]> {
    const kinds = new Map<string, NotificationKind>();
    const add = (userId: string | undefined, kind: NotificationKind) => {
      if (userId !== undefined && userId !== event.actorId && !kinds.has(userId)) kinds.set(userId, kind);
    };
    if (event.parentId !== null)
      add(await this.notifications.liveCommentAuthor(event.postId, event.parentId, trx), 'reply');
    add(event.postAuthorId, 'comment');
    for (const userId of event.mentionedIds) add(userId, 'mention');
    return this.write(trx, kinds, { post_id: event.postId, comment_id: event.commentId }, event.actorId, event.at);
  }

  /**
   * An edited comment notifies only whom its new text newly mentions: none who already has a
   * notification about this comment (an earlier mention, the reply's or the post's author).
   */
  async commentEdited(
    trx: Executor,
    event: { postId: string; commentId: string; actorId: string; mentionedIds: readonly string[]; at: string },
  ): Promise<string[]> {
    if (event.mentionedIds.length === 0) return [];
    const already = await this.notifications.recipientsOfComment(event.commentId, trx);
    const kinds = new Map<string, NotificationKind>();
    for (const userId of event.mentionedIds)
      if (userId !== event.actorId && !already.has(userId)) kinds.set(userId, 'mention');
    return this.write(trx, kinds, { post_id: event.postId, comment_id: event.commentId }, event.actorId, event.at);
  }

  /** Comments removed (or emptied to a placeholder): their unread notifications are withdrawn. */
  commentsRemoved(trx: Executor, commentIds: string[]): Promise<string[]> {
    return this.notifications.withdrawUnreadOfComments(commentIds, trx);
  }

  /** A post created, or edited to mention someone new (the caller passes only the new mentions). */
  mentionedInPost(
    trx: Executor,
    event: { postId: string; actorId: string; mentionedIds: readonly string[]; at: string },
  ): Promise<string[]> {
    return this.write(
      trx,
      mentions(event.mentionedIds, event.actorId),
      { post_id: event.postId },
      event.actorId,
      event.at,
    );
  }

  /**
   * An edited post notifies whom its changed texts mention, except anyone who already has a
   * mention notification about this post (mentioned before the edit, in any of its texts).
   */
  async postEdited(
    trx: Executor,
    event: { postId: string; actorId: string; mentionedIds: readonly string[]; at: string },
  ): Promise<string[]> {
    const wanted = event.mentionedIds.filter((userId) => userId !== event.actorId);
    if (wanted.length === 0) return [];
    const already = await this.notifications.mentionedAboutPost(event.postId, wanted, trx);
    return this.mentionedInPost(trx, {
      ...event,
      mentionedIds: wanted.filter((userId) => !already.has(userId)),
    });
  }

  mentionedInNotice(
    trx: Executor,
    event: { noticeId: string; actorId: string; mentionedIds: readonly string[]; at: string },
  ): Promise<string[]> {
    return this.write(
      trx,
      mentions(event.mentionedIds, event.actorId),
      { notice_id: event.noticeId },
      event.actorId,
      event.at,
    );
  }

  /** Called only when the follow row was new: following twice notifies once. */
  followed(trx: Executor, event: { followerId: string; followeeId: string; at: string }): Promise<string[]> {
    return this.write(trx, new Map([[event.followeeId, 'follow']]), {}, event.followerId, event.at);
  }

  async unfollowed(trx: Executor, event: { followerId: string; followeeId: string }): Promise<string[]> {
    return (await this.notifications.withdrawUnreadFollow(event.followeeId, event.followerId, trx))
      ? [event.followeeId]
      : [];
  }

  /**
   * A block: the blocked user's unread notifications to the blocker go (like groups lose them as a
   * liker, counted exactly); read ones stay. Inside the block's transaction.
   */
  async blocked(trx: Executor, event: { blockerId: string; blockedId: string }): Promise<string[]> {
    return (await this.notifications.withdrawUnreadFrom(event.blockerId, event.blockedId, trx))
      ? [event.blockerId]
      : [];
  }

  /** After the source's transaction committed: tells those users' open streams. */
  signal(userIds: readonly string[]): Promise<void> {
    return this.signals.changed(userIds);
  }

  // ---- the reader's calls ----

  async list(userId: string, query: NotificationsQueryDto): Promise<NotificationsReply> {
    const limit = query.limit ?? NOTIFICATIONS.defaultLimit;
    const after = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
    const [rows, unreadCount] = await Promise.all([
      this.notifications.page(userId, { limit: limit + 1, after }),
      this.notifications.unreadCount(userId),
    ]);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      notifications: await this.present(shown),
      nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
      unreadCount,
    };
  }

  async unreadCount(userId: string): Promise<UnreadCountReply> {
    return { unreadCount: await this.notifications.unreadCount(userId) };
  }

  /** `{ids: [...]}` (the caller's own; others are ignored) or `{all: true}`. */
  async markRead(userId: string, body: unknown): Promise<UnreadCountReply> {
    const which = parseMarkRead(body);
    const changed = await this.notifications.markRead(userId, which);
    // The reader's other tabs and devices update their badge.
    if (changed > 0) await this.signal([userId]);
    return this.unreadCount(userId);
  }

  async settings(userId: string): Promise<NotificationSettings> {
    return toSettings((await this.notifications.kindsOff([userId])).get(userId) ?? new Set());
  }

  /** Any subset of the kinds, each true (on) or false (off). */
  async updateSettings(userId: string, body: unknown): Promise<NotificationSettings> {
    const changes = parseSettings(body);
    const off = NOTIFICATION_KINDS.filter((kind) => changes[kind] === false);
    const on = NOTIFICATION_KINDS.filter((kind) => changes[kind] === true);
    await this.transactions.run(async (trx) => {
      await this.notifications.switchOff(userId, off, trx);
      await this.notifications.switchOn(userId, on, trx);
    });
    return this.settings(userId);
  }

  /** A single-use ticket for `?ticket=`, good for NOTIFICATIONS.ticketSeconds, on any instance. */
  async issueTicket(userId: string): Promise<StreamTicketReply> {
    const ticket = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.notifications.insertTicket(
      ticketKey(ticket),
      userId,
      new Date(now + NOTIFICATIONS.ticketSeconds * 1000).toISOString(),
      new Date(now).toISOString(),
    );
    return { ticket, expiresInSeconds: NOTIFICATIONS.ticketSeconds };
  }

  /** The ticket's user, once; undefined for an unknown, used or expired ticket. */
  redeemTicket(ticket: string): Promise<string | undefined> {
    if (ticket.length === 0 || ticket.length > 100) return Promise.resolve(undefined);
    return this.notifications.redeemTicket(ticketKey(ticket), new Date().toISOString());
  }

  /** What a stream sends after `after`: the user's notifications that changed since, oldest first. */
  async changedSince(
    userId: string,
    after: Keyset | null,
  ): Promise<{ notifications: { notification: Notification; key: Keyset }[]; unreadCount: number }> {
    const [rows, unreadCount] = await Promise.all([
      this.notifications.changedSince(userId, after, NOTIFICATIONS.maxLimit),
      this.notifications.unreadCount(userId),
    ]);
    const presented = await this.present(rows);
    return {
      notifications: rows.map((row, index) => ({
        notification: presented[index],
        key: { createdAt: row.created_at, id: row.id },
      })),
      unreadCount,
    };
  }

  /** The (created_at, id) of the user's notifications at or after `from` (a stream's window). */
  keysSince(userId: string, from: Keyset): Promise<Keyset[]> {
    return this.notifications.keysSince(userId, from);
  }

  newestKey(userId: string): Promise<Keyset | null> {
    return this.notifications.newestKey(userId);
  }

  private async present(rows: NotificationWithTarget[]): Promise<Notification[]> {
    const actors = await this.notifications.newestActors(
      rows.map((row) => row.id),
      NOTIFICATIONS.actorsShown,
    );
    const byNotification = new Map<string, typeof actors>();
    for (const actor of actors) {
      const list = byNotification.get(actor.notification_id) ?? [];
      list.push(actor);
      byNotification.set(actor.notification_id, list);
    }
    return rows.map((row) => toNotification(row, byNotification.get(row.id) ?? []));
  }

  /**
   * One notification per recipient, unless they switched its kind off or mute the actor (one
   * statement tells both). Answers who got one.
   */
  private async write(
    trx: Executor,
    kinds: Map<string, NotificationKind>,
    target: Target,
    actorId: string,
    at: string,
  ): Promise<string[]> {
    if (kinds.size === 0) return [];
    const { off, muting } = await this.notifications.silenced([...kinds.keys()], actorId, trx);
    const written: string[] = [];
    for (const [userId, kind] of kinds) {
      if (off.get(userId)?.has(kind) || muting.has(userId)) continue;
      await this.notifications.insert(
        { id: newObjectId(new Date(at)), user_id: userId, kind, created_at: at, ...target },
        actorId,
        trx,
      );
      written.push(userId);
    }
    return written;
  }
}

function mentions(userIds: readonly string[], actorId: string): Map<string, NotificationKind> {
  return new Map(userIds.filter((userId) => userId !== actorId).map((userId) => [userId, 'mention' as const]));
}

/** Tickets are stored by hash: a leaked table holds no usable ticket. */
function ticketKey(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseMarkRead(body: unknown): string[] | 'all' {
  if (!isPlainObject(body)) throw new BadRequestError('The request body must be a JSON object');
  const keys = Object.keys(body);
  if (keys.length === 1 && body.all === true) return 'all';
  if (keys.length !== 1 || !('ids' in body))
    throw new BadRequestError('Send either ids (a list of notification ids) or all: true');
  const ids = body.ids;
  if (!Array.isArray(ids) || ids.length === 0)
    throw new BadRequestError('ids must be a list of at least one notification id');
  if (ids.length > NOTIFICATIONS.markReadMaxIds)
    throw new BadRequestError(`ids may name at most ${NOTIFICATIONS.markReadMaxIds} notifications`);
  const parsed = ids.map(parseObjectId);
  if (parsed.some((id) => id === null)) throw new BadRequestError('Each id must be a notification id');
  return [...new Set(parsed as string[])];
}

function parseSettings(body: unknown): Partial<NotificationSettings> {
  if (!isPlainObject(body)) throw new BadRequestError('The request body must be a JSON object');
  const entries = Object.entries(body);
  if (entries.length === 0)
    throw new BadRequestError(`Send at least one of ${NOTIFICATION_KINDS.join(', ')} with true or false`);
  const changes: Partial<NotificationSettings> = {};
  for (const [key, value] of entries) {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(key))
      throw new BadRequestError(`${key} is not a kind of notification (${NOTIFICATION_KINDS.join(', ')})`);
    if (typeof value !== 'boolean') throw new BadRequestError(`${key} must be true or false`);
    changes[key as NotificationKind] = value;
  }
  return changes;
}
