import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  AdminUser,
  AdminUsersReply,
  ModerationLogEntry,
  PasswordResetLinkReply,
  ModerationLogReply,
  Report,
  ReportGroup,
  ReportQueueReply,
  ReportReply,
  ReportedTarget,
  ResolveReportsReply,
  SuspensionReply,
} from '@techit/contract/api-types';
import {
  MODERATION_LOG_ACTIONS,
  type ModerationLogAction,
  REPORT_REASONS,
  REPORT_STATUSES,
  REPORT_TARGET_KINDS,
  ROLES,
  type ReportReason,
  type ReportStatus,
  type ReportTargetKind,
  type Role,
} from '@techit/contract/enums';
import { AuthorResponse } from '../../users/dto/user.response';

export class ReportResponse implements Report {
  @ApiProperty() _id: string;
  @ApiProperty({ enum: REPORT_TARGET_KINDS }) targetKind: ReportTargetKind;
  @ApiProperty() targetId: string;
  @ApiProperty({ enum: REPORT_REASONS }) reason: ReportReason;
  @ApiProperty() note: string;
  @ApiProperty({ enum: REPORT_STATUSES }) status: ReportStatus;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ReportReplyResponse implements ReportReply {
  @ApiProperty({ type: ReportResponse }) report: ReportResponse;
}

export class ReportedTargetResponse implements ReportedTarget {
  @ApiProperty({ type: String, nullable: true, description: 'Its text cut short; null when it is gone' })
  excerpt: string | null;
  @ApiProperty({ type: AuthorResponse, nullable: true }) author: AuthorResponse | null;
  @ApiProperty() removed: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) suspendedUntil: string | null;
  @ApiPropertyOptional({ description: "A comment's post, to link to its thread" }) postId?: string;
}

export class ReportGroupResponse implements ReportGroup {
  @ApiProperty({ enum: REPORT_TARGET_KINDS }) targetKind: ReportTargetKind;
  @ApiProperty() targetId: string;
  @ApiProperty({ type: ReportedTargetResponse }) target: ReportedTargetResponse;
  @ApiProperty() count: number;
  @ApiProperty({ description: 'How many reports gave each reason (reasons nobody gave are absent)' })
  reasons: Partial<Record<ReportReason, number>>;
  @ApiProperty({ type: [String], description: 'The notes reporters wrote, newest first (at most 5)' }) notes: string[];
  @ApiProperty({ format: 'date-time' }) firstReportedAt: string;
  @ApiProperty({ format: 'date-time' }) lastReportedAt: string;
  @ApiProperty({ enum: REPORT_STATUSES }) status: ReportStatus;
}

export class ReportQueueResponse implements ReportQueueReply {
  @ApiProperty({ type: [ReportGroupResponse] }) reports: ReportGroupResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class ModerationLogEntryResponse implements ModerationLogEntry {
  @ApiProperty() _id: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ enum: MODERATION_LOG_ACTIONS }) action: ModerationLogAction;
  @ApiProperty({ enum: REPORT_TARGET_KINDS }) targetKind: ReportTargetKind;
  @ApiProperty() targetId: string;
  @ApiProperty() reason: string;
  @ApiPropertyOptional({ type: AuthorResponse, description: 'Only for moderators and admins' })
  moderator?: AuthorResponse;
}

export class ModerationLogResponse implements ModerationLogReply {
  @ApiProperty({ type: [ModerationLogEntryResponse] }) entries: ModerationLogEntryResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class ResolveReportsResponse implements ResolveReportsReply {
  @ApiProperty({ description: 'How many open reports this closed' }) resolved: number;
  @ApiProperty({ type: ModerationLogEntryResponse }) entry: ModerationLogEntryResponse;
}

export class SuspensionResponse implements SuspensionReply {
  @ApiProperty() userId: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'null once lifted' })
  suspendedUntil: string | null;
  @ApiProperty({ type: ModerationLogEntryResponse }) entry: ModerationLogEntryResponse;
}

export class AdminUserResponse implements AdminUser {
  @ApiProperty() _id: string;
  @ApiProperty() userName: string;
  @ApiProperty() pic: string;
  @ApiProperty({ enum: ROLES, description: "The effective role; 'user' is a member" }) role: Role;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'null when not suspended' })
  suspendedUntil: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class AdminUsersResponse implements AdminUsersReply {
  @ApiProperty({ type: [AdminUserResponse] }) users: AdminUserResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class PasswordResetLinkResponse implements PasswordResetLinkReply {
  @ApiProperty({ description: 'Works once, until expiresAt; pass it on to the user' }) link: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
