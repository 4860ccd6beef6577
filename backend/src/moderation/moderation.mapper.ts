import type { AdminUser, ModerationLogEntry, Report, ReportGroup, ReportedTarget } from '@techit/contract/api-types';
import {
  type ModerationLogAction,
  REPORT_REASONS,
  type ReportReason,
  type ReportStatus,
  type ReportTargetKind,
  type Role,
} from '@techit/contract/enums';
import { MODERATION } from '@techit/contract/limits';
import type { AdminUserRow, LogRow, ReportGroupRow, ReportRow, TargetRow } from './moderation.repository';

export function toReport(row: ReportRow): Report {
  return {
    _id: row.id,
    targetKind: row.target_kind as ReportTargetKind,
    targetId: row.target_id,
    reason: row.reason as ReportReason,
    note: row.note,
    status: row.status as ReportStatus,
    createdAt: row.created_at,
  };
}

/** A target's text cut short for the queue ('' for a user without a bio; null when it is gone). */
function toTarget(row: TargetRow | undefined): ReportedTarget {
  if (!row) return { excerpt: null, author: null, removed: false, suspendedUntil: null };
  const text = row.text.length > MODERATION.excerptMax ? `${row.text.slice(0, MODERATION.excerptMax - 1)}…` : row.text;
  const suspended = row.author_suspended_until !== null && row.author_suspended_until > new Date().toISOString();
  return {
    excerpt: text,
    author: { _id: row.author_id, userName: row.author_user_name, pic: row.author_pic },
    removed: row.removed_at !== null,
    suspendedUntil: suspended ? row.author_suspended_until : null,
    ...(row.post_id !== null ? { postId: row.post_id } : {}),
  };
}

/** `role`: the effective one (AdminPolicy.roleOf); a suspension that has ended reads as none. */
export function toAdminUser(row: AdminUserRow, role: Role, now: string): AdminUser {
  return {
    _id: row.id,
    userName: row.user_name,
    pic: row.pic,
    role,
    suspendedUntil: row.suspended_until !== null && row.suspended_until > now ? row.suspended_until : null,
    createdAt: row.created_at,
  };
}

export function toReportGroup(
  row: ReportGroupRow,
  status: ReportStatus,
  target: TargetRow | undefined,
  notes: string[],
): ReportGroup {
  const reasons: Partial<Record<ReportReason, number>> = {};
  for (const reason of REPORT_REASONS) {
    const count = Number(row[`reason_${reason}`] ?? 0);
    if (count > 0) reasons[reason] = count;
  }
  return {
    targetKind: row.target_kind as ReportTargetKind,
    targetId: row.target_id,
    target: toTarget(target),
    count: Number(row.count),
    reasons,
    notes,
    firstReportedAt: row.first_at,
    lastReportedAt: row.last_at,
    status,
  };
}

/** `withModerator`: the reader is a moderator or an admin (the log is public, its names are not). */
export function toLogEntry(row: LogRow, withModerator: boolean): ModerationLogEntry {
  return {
    _id: row.id,
    at: row.created_at,
    action: row.action as ModerationLogAction,
    targetKind: row.target_kind as ReportTargetKind,
    targetId: row.target_id,
    reason: row.reason,
    ...(withModerator && row.moderator_id !== null
      ? {
          moderator: {
            _id: row.moderator_id,
            userName: row.moderator_user_name ?? '',
            pic: row.moderator_pic ?? '',
          },
        }
      : {}),
  };
}
