import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { BlockReply, MuteReply, RelatedUser, RelatedUsersReply, UserIdRequest } from '@techit/contract/api-types';
import { USER_RELATIONS } from '@techit/contract/limits';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The body of PUT /api/block, /unblock, /mute, /unmute; whether the id is well formed is the service's 400. */
export class UserIdDto implements UserIdRequest {
  @ApiProperty({ description: 'The other user (24 hex characters)' })
  @IsNotEmpty({ message: 'userId is required' })
  @IsString({ message: 'userId must be text' })
  userId: string;
}

export class RelationsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: USER_RELATIONS.maxLimit, default: USER_RELATIONS.defaultLimit })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(USER_RELATIONS.maxLimit, { message: `limit must be at most ${USER_RELATIONS.maxLimit}` })
  limit?: number;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page: newest first, no repeats, no skips.' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}

export class BlockReplyResponse implements BlockReply {
  @ApiProperty() userId: string;
  @ApiProperty({ description: 'Whether you now block this user' }) blocked: boolean;
}

export class MuteReplyResponse implements MuteReply {
  @ApiProperty() userId: string;
  @ApiProperty({ description: 'Whether you now mute this user' }) muted: boolean;
}

export class RelatedUserResponse implements RelatedUser {
  @ApiProperty() _id: string;
  @ApiProperty() userName: string;
  @ApiProperty() pic: string;
  @ApiProperty({ format: 'date-time', description: 'When you blocked (or muted) them' }) since: string;
}

export class RelatedUsersResponse implements RelatedUsersReply {
  @ApiProperty({ type: [RelatedUserResponse], description: 'Newest first' })
  users: RelatedUserResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'The cursor of the next page; null on the last' })
  nextCursor: string | null;
}
