import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  MODERATION_ACTIONS,
  type ModerationAction,
  REPORT_REASONS,
  REPORT_STATUSES,
  REPORT_TARGET_KINDS,
  ROLES,
  type ReportReason,
  type ReportStatus,
  type ReportTargetKind,
  type Role,
} from '@techit/contract/enums';
import { LIMITS, MODERATION } from '@techit/contract/limits';
import { IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { say, Trim, TrimToUndefined } from '../../common/validation';

export class CreateReportDto {
  @ApiProperty({ enum: REPORT_TARGET_KINDS })
  @IsIn(REPORT_TARGET_KINDS, { message: `targetKind must be one of: ${REPORT_TARGET_KINDS.join(', ')}` })
  targetKind: ReportTargetKind;

  @ApiProperty({ description: 'The id of the post, comment, notice or user' })
  @IsString({ message: 'targetId must be an id' })
  targetId: string;

  @ApiProperty({ enum: REPORT_REASONS })
  @IsIn(REPORT_REASONS, { message: `reason must be one of: ${REPORT_REASONS.join(', ')}` })
  reason: ReportReason;

  @ApiPropertyOptional({ maxLength: MODERATION.noteMax, description: 'What the moderators should know' })
  @TrimToUndefined()
  @IsOptional()
  @IsString({ message: 'note must be text' })
  @MaxLength(MODERATION.noteMax, { message: `note must be at most ${MODERATION.noteMax} characters` })
  note?: string;
}

export class ReportQueueQueryDto {
  @ApiPropertyOptional({ enum: REPORT_STATUSES, default: 'open' })
  @IsOptional()
  @IsIn(REPORT_STATUSES, { message: `status must be one of: ${REPORT_STATUSES.join(', ')}` })
  status?: ReportStatus;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page (same status)' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(300, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}

export class ModerationLogQueryDto {
  @ApiPropertyOptional({ description: 'The nextCursor of the previous page' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}

export class ResolveReportsDto {
  @ApiProperty({ enum: MODERATION_ACTIONS })
  @IsIn(MODERATION_ACTIONS, { message: `action must be one of: ${MODERATION_ACTIONS.join(', ')}` })
  action: ModerationAction;

  @ApiProperty({ maxLength: MODERATION.reasonMax, description: 'Shown in the public moderation log' })
  @Trim()
  @IsNotEmpty(say('reason is required', 'Say why: the reason is shown in the moderation log.'))
  @IsString({ message: 'reason must be text' })
  @MaxLength(MODERATION.reasonMax, { message: `reason must be at most ${MODERATION.reasonMax} characters` })
  reason: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'suspend-author only: when the suspension ends (in the future). Absent: indefinitely.',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be a date and time (ISO 8601)' })
  until?: string;
}

export class SetRoleDto {
  @ApiProperty({ enum: ROLES, description: "'user' is the issue's member (decision 047)" })
  @IsIn(ROLES, { message: `role must be one of: ${ROLES.join(', ')}` })
  role: Role;
}

/** The reason every moderation action carries: it is shown in the public log. */
function ReasonField(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ maxLength: MODERATION.reasonMax, description: 'Shown in the public moderation log' }),
    Trim(),
    IsNotEmpty(say('reason is required', 'Say why: the reason is shown in the moderation log.')),
    IsString({ message: 'reason must be text' }),
    MaxLength(MODERATION.reasonMax, { message: `reason must be at most ${MODERATION.reasonMax} characters` }),
  );
}

export class SuspendDto {
  @ReasonField()
  reason: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the suspension ends (in the future). Absent: indefinitely.',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be a date and time (ISO 8601)' })
  until?: string;
}

export class UnsuspendDto {
  @ReasonField()
  reason: string;
}

export class AdminUsersQueryDto {
  @ApiPropertyOptional({
    maxLength: LIMITS.userNameMax,
    description: 'Only names containing this (case-insensitive); absent or empty: everyone, newest first',
  })
  @TrimToUndefined()
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(LIMITS.userNameMax, { message: `q must be at most ${LIMITS.userNameMax} characters` })
  q?: string;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page (same q)' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}
