import { Inject, Injectable } from '@nestjs/common';
import { REPORT_REASONS, type ReportReason, type ReportTargetKind } from '@techit/contract/enums';
import { type SqlBool, sql } from 'kysely';
import type { Keyset } from '../common/cursor';
import { DELETED_USER_ID } from '../common/deleted-user';
import { DATABASE } from '../database/database.tokens';
import type { Db, Executor } from '../database/database.types';

export interface ReportRow {
  id: string;
  reporter_id: string;
  target_kind: string;
  target_id: string;
  reason: string;
  note: string;
  status: string;
  created_at: string;
}

/** One target of the queue: its reports counted, by reason too. */
export type ReportGroupRow = {
  target_kind: string;
  target_id: string;
  count: number | string;
  first_at: string;
  last_at: string;
} & Record<`reason_${ReportReason}`, number | string | null>;

/** Where a queue page starts: after this group in the queue's order (count desc, last desc, kind, id). */
export interface QueueKeyset {
  count: number;
  last: string;
  kind: string;
  id: string;
}

/** What the queue shows of a reported thing, and whose it is. */
export interface TargetRow {
  id: string;
  author_id: string;
  author_user_name: string;
  author_pic: string;
  author_suspended_until: string | null;
  text: string;
  removed_at: string | null;
  /** A comment's post; null for the other kinds. */
  post_id: string | null;
}

/** One account of the admin area's users list. */
export interface AdminUserRow {
  id: string;
  user_name: string;
  pic: string;
  role: string;
  suspended_until: string | null;
  created_at: string;
}

export interface LogRow {
  id: string;
  action: string;
  target_kind: string;
  target_id: string;
  reason: string;
  created_at: string;
  moderator_id: string | null;
  moderator_user_name: string | null;
  moderator_pic: string | null;
}

/** The column a reason is counted in, in the queue's grouping statement. */
function reasonColumn(reason: ReportReason): `reason_${ReportReason}` {
  return `reason_${reason}`;
}

/** The only place that reads or writes reports and the moderation log (docs/decisions/047-moderation.md). */
@Injectable()
export class ModerationRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** A new open report, or nothing when this reporter already holds an open one of the target. */
  async insertReport(report: ReportRow, ex: Executor = this.db): Promise<void> {
    await ex
      .insertInto('reports')
      .values(report)
      .onConflict((oc) =>
        // The partial index's own condition, as a literal: SQLite matches it by its text.
        oc
          .columns(['reporter_id', 'target_kind', 'target_id'])
          .where(sql.ref('status'), '=', sql.lit('open'))
          .doNothing(),
      )
      .execute();
  }

  openReportBy(reporterId: string, kind: ReportTargetKind, targetId: string): Promise<ReportRow | undefined> {
    return this.db
      .selectFrom('reports')
      .selectAll()
      .where('reporter_id', '=', reporterId)
      .where('target_kind', '=', kind)
      .where('target_id', '=', targetId)
      .where('status', '=', 'open')
      .executeTakeFirst();
  }

  /**
   * One page of the queue: a status's reports grouped by target, most reports first, then the
   * latest report, then by target (a total order, so a cursor page starts strictly after the last
   * group shown). One statement over (status, target_kind, target_id, created_at).
   */
  groups(status: string, limit: number, after?: QueueKeyset): Promise<ReportGroupRow[]> {
    const count = sql<number>`count(*)`;
    const last = sql<string>`max(reports.created_at)`;
    let query = this.db
      .selectFrom('reports')
      .select([
        'reports.target_kind',
        'reports.target_id',
        count.as('count'),
        sql<string>`min(reports.created_at)`.as('first_at'),
        last.as('last_at'),
        ...REPORT_REASONS.map((reason) =>
          sql<number>`sum(case when reports.reason = ${reason} then 1 else 0 end)`.as(reasonColumn(reason)),
        ),
      ])
      .where('reports.status', '=', status)
      .groupBy(['reports.target_kind', 'reports.target_id']);
    if (after) {
      query = query.having(
        sql<SqlBool>`(${count} < ${after.count} or (${count} = ${after.count} and (${last} < ${after.last}
          or (${last} = ${after.last} and (reports.target_kind > ${after.kind}
          or (reports.target_kind = ${after.kind} and reports.target_id > ${after.id}))))))`,
      );
    }
    return query
      .orderBy(count, 'desc')
      .orderBy(last, 'desc')
      .orderBy('reports.target_kind')
      .orderBy('reports.target_id')
      .limit(limit)
      .execute();
  }

  /** The notes of these targets' reports of a status, newest first, in one statement. */
  notesOf(
    status: string,
    targets: { kind: string; id: string }[],
  ): Promise<{ target_kind: string; target_id: string; note: string }[]> {
    if (targets.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('reports')
      .select(['target_kind', 'target_id', 'note'])
      .where('status', '=', status)
      .where('target_id', 'in', [...new Set(targets.map((target) => target.id))])
      .where('note', '<>', '')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The reported things of one kind, with their authors (a user is its own author). */
  async targets(kind: ReportTargetKind, ids: string[], ex: Executor = this.db): Promise<TargetRow[]> {
    if (ids.length === 0) return [];
    if (kind === 'user') {
      return ex
        .selectFrom('users')
        .select([
          'users.id',
          'users.id as author_id',
          'users.user_name as author_user_name',
          'users.pic as author_pic',
          'users.suspended_until as author_suspended_until',
          'users.bio as text',
          sql<string | null>`null`.as('removed_at'),
          sql<string | null>`null`.as('post_id'),
        ])
        .where('users.id', 'in', ids)
        .execute();
    }
    const table = kind === 'post' ? 'posts' : kind === 'comment' ? 'comments' : 'notices';
    const text = kind === 'post' ? 'posts.title' : kind === 'comment' ? 'comments.text' : 'notices.description';
    return ex
      .selectFrom(table)
      .innerJoin('users', 'users.id', `${table}.author_id`)
      .select([
        `${table}.id as id`,
        `${table}.author_id as author_id`,
        'users.user_name as author_user_name',
        'users.pic as author_pic',
        'users.suspended_until as author_suspended_until',
        sql<string>`${sql.ref(text)}`.as('text'),
        `${table}.removed_at as removed_at`,
        kind === 'comment'
          ? sql<string | null>`comments.post_id`.as('post_id')
          : sql<string | null>`null`.as('post_id'),
      ])
      .where(`${table}.id`, 'in', ids)
      .$if(kind === 'comment', (query) => query.where(sql.ref('comments.deleted'), '=', 0))
      .execute();
  }

  /** Closes the target's open reports; answers how many. */
  async resolveOpen(kind: ReportTargetKind, targetId: string, at: string, ex: Executor): Promise<number> {
    const result = await ex
      .updateTable('reports')
      .set({ status: 'resolved', resolved_at: at })
      .where('status', '=', 'open')
      .where('target_kind', '=', kind)
      .where('target_id', '=', targetId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async countOpen(kind: ReportTargetKind, targetId: string, ex: Executor): Promise<number> {
    const { n } = await ex
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'open')
      .where('target_kind', '=', kind)
      .where('target_id', '=', targetId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /**
   * Marks the content removed, and withdraws the notifications about it (a removed post's likes,
   * comments and mentions; a comment's or notice's mentions and replies) in the same transaction.
   */
  async remove(kind: 'post' | 'comment' | 'notice', id: string, moderatorId: string, at: string, ex: Executor) {
    const table = kind === 'post' ? 'posts' : kind === 'comment' ? 'comments' : 'notices';
    await ex
      .updateTable(table)
      .set({ removed_at: at, removed_by: moderatorId })
      .where('id', '=', id)
      .where('removed_at', 'is', null)
      .execute();
    const column = kind === 'post' ? 'post_id' : kind === 'comment' ? 'comment_id' : 'notice_id';
    await ex.deleteFrom('notifications').where(column, '=', id).execute();
  }

  /** Suspends the account until `until` and ends every session it has (token_version). */
  async suspend(userId: string, until: string, ex: Executor): Promise<void> {
    await ex
      .updateTable('users')
      .set((eb) => ({ suspended_until: until, token_version: eb('token_version', '+', 1) }))
      .where('id', '=', userId)
      .execute();
  }

  /** Lifts a suspension; the sessions it ended stay ended. */
  async unsuspend(userId: string, ex: Executor): Promise<void> {
    await ex.updateTable('users').set({ suspended_until: null }).where('id', '=', userId).execute();
  }

  async insertLogEntry(entry: Omit<LogRow, 'moderator_user_name' | 'moderator_pic'>, ex: Executor): Promise<void> {
    await ex.insertInto('moderation_actions').values(entry).execute();
  }

  /**
   * The admin area's users list: newest first by (created_at, id), after `after`; with `contains`
   * (lower-case), only names containing it. userNames are ASCII (USER_NAME_PATTERN), so lower()
   * agrees on both databases; LIKE's own wildcards in it are escaped. Never the placeholder account
   * of deleted users (common/deleted-user.ts).
   */
  users(limit: number, contains: string | undefined, after?: Keyset): Promise<AdminUserRow[]> {
    let query = this.db
      .selectFrom('users')
      .select(['id', 'user_name', 'pic', 'role', 'suspended_until', 'created_at'])
      .where('id', '<>', DELETED_USER_ID);
    if (contains) {
      const pattern = `%${contains.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      query = query.where(sql<SqlBool>`lower(user_name) like ${pattern} escape '\\'`);
    }
    if (after) {
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** The log, newest first by (created_at, id), after `after`. */
  log(limit: number, after?: Keyset): Promise<LogRow[]> {
    let query = this.db
      .selectFrom('moderation_actions')
      .leftJoin('users', 'users.id', 'moderation_actions.moderator_id')
      .select([
        'moderation_actions.id',
        'moderation_actions.action',
        'moderation_actions.target_kind',
        'moderation_actions.target_id',
        'moderation_actions.reason',
        'moderation_actions.created_at',
        'moderation_actions.moderator_id',
        'users.user_name as moderator_user_name',
        'users.pic as moderator_pic',
      ]);
    if (after) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('moderation_actions.created_at', 'moderation_actions.id'),
          '<',
          eb.tuple(after.createdAt, after.id),
        ),
      );
    }
    return query
      .orderBy('moderation_actions.created_at', 'desc')
      .orderBy('moderation_actions.id', 'desc')
      .limit(limit)
      .execute();
  }
}
