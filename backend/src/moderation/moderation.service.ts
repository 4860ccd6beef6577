import { Injectable, Logger } from '@nestjs/common';
import type {
  AdminUsersReply,
  ModerationLogReply,
  PasswordResetLinkReply,
  ProfileUser,
  Report,
  ReportQueueReply,
  ResolveReportsReply,
  SuspensionReply,
} from '@techit/contract/api-types';
import { REPORT_TARGET_KINDS, type ReportStatus, type ReportTargetKind } from '@techit/contract/enums';
import { MODERATION } from '@techit/contract/limits';
import { AdminPolicy, canModerate } from '../admin/admin-policy';
import type { AuthUser } from '../auth/auth-user';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../common/app-errors';
import { decodeCursor, encodeCursor, toPage } from '../common/cursor';
import { DELETED_USER_ID } from '../common/deleted-user';
import { newObjectId, parseObjectId } from '../common/object-id';
import type { Executor } from '../database/database.types';
import { TransactionRunner } from '../database/transaction-runner';
import { PasswordResetService } from '../password-reset/password-reset.service';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import type {
  AdminUsersQueryDto,
  CreateReportDto,
  ModerationLogQueryDto,
  ReportQueueQueryDto,
  ResolveReportsDto,
  SetRoleDto,
  SuspendDto,
  UnsuspendDto,
} from './dto/moderation-input.dto';
import { toAdminUser, toLogEntry, toReport, toReportGroup } from './moderation.mapper';
import { ModerationRepository, type QueueKeyset, type TargetRow } from './moderation.repository';

const BAD_CURSOR = 'That cursor is not valid; start again from the first page';
const NOUN: Record<ReportTargetKind, string> = { post: 'post', comment: 'comment', notice: 'notice', user: 'user' };

/**
 * Reports, the queue, what resolving does, and the public log (docs/decisions/047-moderation.md).
 * Every refusal is decided before the first write, and every resolution is one transaction.
 */
@Injectable()
export class ModerationService {
  constructor(
    private readonly moderation: ModerationRepository,
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly adminPolicy: AdminPolicy,
    private readonly transactions: TransactionRunner,
    private readonly passwordResets: PasswordResetService,
  ) {}

  private readonly logger = new Logger(ModerationService.name);

  /** A second open report of one target by one person changes nothing and answers the first. */
  async report(me: AuthUser, input: CreateReportDto): Promise<Report> {
    const targetId = parseObjectId(input.targetId);
    if (!targetId) throw new BadRequestError('targetId must be an id');
    const [target] = await this.moderation.targets(input.targetKind, [targetId]);
    if (!target) throw new NotFoundError(`There is no such ${NOUN[input.targetKind]}`);
    if (target.author_id === me.id) {
      throw new BadRequestError(
        input.targetKind === 'user'
          ? 'You cannot report yourself'
          : `You cannot report your own ${NOUN[input.targetKind]}`,
      );
    }
    const now = new Date();
    await this.moderation.insertReport({
      id: newObjectId(now),
      reporter_id: me.id,
      target_kind: input.targetKind,
      target_id: targetId,
      reason: input.reason,
      note: input.note ?? '',
      status: 'open',
      created_at: now.toISOString(),
    });
    const open = await this.moderation.openReportBy(me.id, input.targetKind, targetId);
    // Resolved between the insert and this read: the report was taken care of already.
    if (!open) throw new NotFoundError(`There is no open report of this ${NOUN[input.targetKind]}`);
    return toReport(open);
  }

  /** Worst first: most reports, then the latest report. A fixed number of statements per page. */
  async queue(me: AuthUser, query: ReportQueueQueryDto): Promise<ReportQueueReply> {
    requireModerator(me);
    const status: ReportStatus = query.status ?? 'open';
    const limit = MODERATION.queuePageSize;
    const rows = await this.moderation.groups(
      status,
      limit + 1,
      query.cursor ? decodeQueueCursor(query.cursor) : undefined,
    );
    const shown = rows.slice(0, limit);
    const byKind = new Map<ReportTargetKind, string[]>();
    for (const row of shown) {
      const kind = row.target_kind as ReportTargetKind;
      byKind.set(kind, [...(byKind.get(kind) ?? []), row.target_id]);
    }
    const [targets, notes] = await Promise.all([
      Promise.all([...byKind].map(([kind, ids]) => this.moderation.targets(kind, ids))),
      this.moderation.notesOf(
        status,
        shown.map((row) => ({ kind: row.target_kind, id: row.target_id })),
      ),
    ]);
    const targetOf = new Map<string, TargetRow>();
    [...byKind.keys()].forEach((kind, index) => {
      for (const target of targets[index]) targetOf.set(`${kind}:${target.id}`, target);
    });
    const notesOf = new Map<string, string[]>();
    for (const note of notes) {
      const key = `${note.target_kind}:${note.target_id}`;
      const list = notesOf.get(key) ?? [];
      if (list.length < 5) notesOf.set(key, [...list, note.note]);
    }
    const last = shown[shown.length - 1];
    return {
      reports: shown.map((row) => {
        const key = `${row.target_kind}:${row.target_id}`;
        return toReportGroup(row, status, targetOf.get(key), notesOf.get(key) ?? []);
      }),
      nextCursor:
        rows.length > limit && last
          ? encodeQueueCursor({
              count: Number(last.count),
              last: last.last_at,
              kind: last.target_kind,
              id: last.target_id,
            })
          : null,
    };
  }

  async resolve(
    me: AuthUser,
    rawKind: string,
    rawTargetId: string,
    input: ResolveReportsDto,
  ): Promise<ResolveReportsReply> {
    requireModerator(me);
    const kind = REPORT_TARGET_KINDS.find((known) => known === rawKind);
    if (!kind) throw new BadRequestError(`targetKind must be one of: ${REPORT_TARGET_KINDS.join(', ')}`);
    const targetId = parseObjectId(rawTargetId);
    if (!targetId) throw new BadRequestError('targetId must be an id');
    if (input.action !== 'suspend-author' && input.until !== undefined) {
      throw new BadRequestError('until goes with suspend-author only');
    }
    if (input.action === 'remove' && kind === 'user') {
      throw new BadRequestError('A user cannot be removed; suspend them instead');
    }
    const now = new Date();
    const at = now.toISOString();
    const until = suspensionEnd(input.until, now);
    return this.transactions.run(async (trx) => {
      const [target] = await this.moderation.targets(kind, [targetId], trx);
      if (input.action !== 'dismiss' && !target) throw new NotFoundError(`This ${NOUN[kind]} no longer exists`);
      if (input.action === 'suspend-author' && target) {
        const author = await this.users.findById(target.author_id, trx);
        if (!author) throw new NotFoundError('Its author no longer exists');
        if (author.id === me.id) throw new ForbiddenError('You cannot suspend yourself');
        if (canModerate(this.adminPolicy.roleOf(author))) {
          throw new ForbiddenError(
            'A moderator or an admin cannot be suspended; an admin must change their role first',
          );
        }
      }
      if ((await this.moderation.countOpen(kind, targetId, trx)) === 0) {
        throw new NotFoundError(`There are no open reports of this ${NOUN[kind]}`);
      }
      const resolved = await this.moderation.resolveOpen(kind, targetId, at, trx);
      if (target && kind !== 'user' && input.action !== 'dismiss') {
        await this.moderation.remove(kind, targetId, me.id, at, trx);
      }
      if (target && input.action === 'suspend-author') await this.moderation.suspend(target.author_id, until, trx);
      const entry = {
        id: newObjectId(now),
        moderator_id: me.id,
        action: input.action,
        target_kind: kind,
        target_id: targetId,
        reason: input.reason,
        created_at: at,
      };
      await this.moderation.insertLogEntry(entry, trx);
      return {
        resolved,
        entry: toLogEntry({ ...entry, moderator_user_name: me.userName, moderator_pic: '' }, false),
      };
    });
  }

  /**
   * A suspension set by hand (the admin area's users list), without a report: the same effect as
   * suspend-author (sessions end, sign-in refused until `until`), logged as 'suspend'.
   */
  async suspend(me: AuthUser, rawUserId: string, input: SuspendDto): Promise<SuspensionReply> {
    requireModerator(me);
    const userId = parseObjectId(rawUserId);
    if (!userId) throw new BadRequestError('That is not a user id');
    const now = new Date();
    const until = suspensionEnd(input.until, now);
    return this.transactions.run(async (trx) => {
      await this.requireSuspendable(me, userId, trx);
      await this.moderation.suspend(userId, until, trx);
      const entry = await this.logUserAction(me, 'suspend', userId, input.reason, now, trx);
      return { userId, suspendedUntil: until, entry };
    });
  }

  /** Lifts a suspension (409 when there is none); sessions stay ended, signing in works again. */
  async unsuspend(me: AuthUser, rawUserId: string, input: UnsuspendDto): Promise<SuspensionReply> {
    requireModerator(me);
    const userId = parseObjectId(rawUserId);
    if (!userId) throw new BadRequestError('That is not a user id');
    const now = new Date();
    return this.transactions.run(async (trx) => {
      const user = await this.users.findById(userId, trx);
      if (!user) throw new NotFoundError("This user doesn't exist");
      if (user.suspended_until === null || user.suspended_until <= now.toISOString()) {
        throw new ConflictError('This account is not suspended');
      }
      await this.moderation.unsuspend(userId, trx);
      const entry = await this.logUserAction(me, 'unsuspend', userId, input.reason, now, trx);
      return { userId, suspendedUntil: null, entry };
    });
  }

  private async requireSuspendable(me: AuthUser, userId: string, trx: Executor): Promise<void> {
    const user = await this.users.findById(userId, trx);
    if (!user) throw new NotFoundError("This user doesn't exist");
    if (user.id === me.id) throw new ForbiddenError('You cannot suspend yourself');
    if (canModerate(this.adminPolicy.roleOf(user))) {
      throw new ForbiddenError('A moderator or an admin cannot be suspended; an admin must change their role first');
    }
  }

  private async logUserAction(
    me: AuthUser,
    action: 'suspend' | 'unsuspend',
    userId: string,
    reason: string,
    now: Date,
    trx: Executor,
  ) {
    const entry = {
      id: newObjectId(now),
      moderator_id: me.id,
      action,
      target_kind: 'user',
      target_id: userId,
      reason,
      created_at: now.toISOString(),
    };
    await this.moderation.insertLogEntry(entry, trx);
    return toLogEntry({ ...entry, moderator_user_name: me.userName, moderator_pic: '' }, false);
  }

  /** Public; the moderators' names only for moderators and admins. */
  async log(viewer: AuthUser | null, query: ModerationLogQueryDto): Promise<ModerationLogReply> {
    const limit = MODERATION.logPageSize;
    const rows = await this.moderation.log(limit + 1, query.cursor ? decodeCursor(query.cursor) : undefined);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    const named = viewer !== null && canModerate(viewer.role);
    return {
      entries: shown.map((row) => toLogEntry(row, named)),
      nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  }

  /** The admin area's users list (moderators and admins): newest first, names containing `q`. */
  async adminUsers(me: AuthUser, query: AdminUsersQueryDto): Promise<AdminUsersReply> {
    requireModerator(me);
    const limit = MODERATION.queuePageSize;
    const rows = await this.moderation.users(
      limit + 1,
      query.q?.toLowerCase(),
      query.cursor ? decodeCursor(query.cursor) : undefined,
    );
    const page = toPage(rows, limit);
    const now = new Date().toISOString();
    return {
      users: page.rows.map((row) => toAdminUser(row, this.adminPolicy.roleOf(row), now)),
      nextCursor: page.nextCursor,
    };
  }

  /**
   * Admins only: a one-time password reset link for the user, as the mail would carry it, to pass
   * on by hand (the admin area's "reset password link"; `npm run admin -- reset-password` does the
   * same). Not in the public log (it would tell everyone whose account was in trouble): the server
   * log keeps who asked for whom, never the link (decision 047, addendum).
   */
  async passwordResetLink(me: AuthUser, rawUserId: string, origin: string): Promise<PasswordResetLinkReply> {
    if (me.role !== 'admin') throw new ForbiddenError('Only an admin can make a password reset link');
    const userId = parseObjectId(rawUserId);
    const row = userId && userId !== DELETED_USER_ID ? await this.users.findById(userId) : undefined;
    if (!row) throw new NotFoundError("This user doesn't exist");
    const { link, expiresAt } = await this.passwordResets.linkFor(row.user_name, origin);
    this.logger.log(`Admin ${me.id} made a password reset link for user ${row.id}`);
    return { link, expiresAt };
  }

  /** Admins only. The effective role still counts ADMIN_USERNAMES. */
  async setRole(me: AuthUser, rawUserId: string, input: SetRoleDto): Promise<ProfileUser> {
    if (me.role !== 'admin') throw new ForbiddenError('Only an admin can change roles');
    const userId = parseObjectId(rawUserId);
    const row = userId ? await this.users.findById(userId) : undefined;
    if (!row) throw new NotFoundError("This user doesn't exist");
    await this.users.update(row.id, { role: input.role, updated_at: new Date().toISOString() });
    return this.usersService.getProfile(row.id);
  }
}

/** The suspension's end: `until` (in the future) or, without it, indefinitely. */
function suspensionEnd(until: string | undefined, now: Date): string {
  if (until === undefined) return MODERATION.suspendedIndefinitely;
  const time = Date.parse(until);
  if (Number.isNaN(time) || time <= now.getTime()) throw new BadRequestError('until must be in the future');
  return new Date(time).toISOString();
}

function requireModerator(me: AuthUser): void {
  if (!canModerate(me.role)) throw new ForbiddenError('Only moderators and admins can see the reports');
}

function encodeQueueCursor(keyset: QueueKeyset): string {
  return Buffer.from(JSON.stringify([keyset.count, keyset.last, keyset.kind, keyset.id]), 'utf8').toString('base64url');
}

function decodeQueueCursor(cursor: string): QueueKeyset {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 4) {
      const [count, last, kind, id] = parsed as unknown[];
      if (
        typeof count === 'number' &&
        Number.isInteger(count) &&
        count > 0 &&
        typeof last === 'string' &&
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(last) &&
        typeof kind === 'string' &&
        (REPORT_TARGET_KINDS as readonly string[]).includes(kind) &&
        parseObjectId(id) !== null
      ) {
        return { count, last, kind, id: id as string };
      }
    }
  } catch {
    // Not JSON: refused below.
  }
  throw new BadRequestError(BAD_CURSOR);
}
