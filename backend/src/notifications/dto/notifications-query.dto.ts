import { ApiPropertyOptional } from '@nestjs/swagger';
import { NOTIFICATIONS } from '@techit/contract/limits';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class NotificationsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: NOTIFICATIONS.maxLimit, default: NOTIFICATIONS.defaultLimit })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(NOTIFICATIONS.maxLimit, { message: `limit must be at most ${NOTIFICATIONS.maxLimit}` })
  limit?: number;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page (newest first; no repeats, no skips).' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}

export class NotificationStreamQueryDto {
  @ApiPropertyOptional({
    description: 'A ticket from POST /api/notifications/stream-ticket (single use, 60 s), for EventSource',
  })
  @IsOptional()
  @IsString({ message: 'ticket must be text' })
  ticket?: string;

  @ApiPropertyOptional({
    description: 'The id of the last event received (as the Last-Event-ID header): what changed since is sent first',
  })
  @IsOptional()
  @IsString({ message: 'lastEventId must be text' })
  @MaxLength(200, { message: 'That Last-Event-ID is not valid; reconnect without it' })
  lastEventId?: string;
}
