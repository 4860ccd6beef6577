import type { ModerationLogAction, ReportReason, ReportTargetKind, Role } from '@techit/contract/enums';
import { MODERATION } from '@techit/contract/limits';
import { commentPath, paths } from '../../../config/paths';

export const REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  'off-topic': 'Off-topic',
  other: 'Other',
};

export const KIND_LABELS: Record<ReportTargetKind, string> = {
  post: 'Post',
  comment: 'Comment',
  notice: 'Notice',
  user: 'User',
};

export const ACTION_LABELS: Record<ModerationLogAction, string> = {
  dismiss: 'Dismissed reports',
  remove: 'Removed',
  'suspend-author': 'Removed and suspended the author',
  suspend: 'Suspended',
  unsuspend: 'Lifted a suspension',
};

/** 'user' is the member role's wire value (decision 047). */
export const ROLE_LABELS: Record<Role, string> = { user: 'Member', moderator: 'Moderator', admin: 'Admin' };

/**
 * Where a reported or logged target is read: a post's page, a comment in its thread, a notice on
 * its author's Notices tab, a user's profile. Null when there is nowhere to go.
 */
export function targetPath(
  kind: ReportTargetKind,
  id: string,
  extra: { postId?: string; authorId?: string } = {},
): string | null {
  if (kind === 'post') return paths.post(id);
  if (kind === 'user') return paths.profile(id);
  if (kind === 'comment') return extra.postId ? commentPath(extra.postId, id) : null;
  return extra.authorId ? paths.profileNotices(extra.authorId) : null;
}

/** "until 3 Dec 2026" or "indefinitely". */
export function suspensionText(until: string): string {
  if (until === MODERATION.suspendedIndefinitely) return 'indefinitely';
  return `until ${new Date(until).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`;
}

/** A date input's day (YYYY-MM-DD) as the end of that day, local time, in ISO; '' is indefinitely. */
export function endOfDay(day: string): string | undefined {
  if (!day) return undefined;
  const end = new Date(`${day}T23:59:59.999`);
  return Number.isNaN(end.getTime()) ? undefined : end.toISOString();
}
