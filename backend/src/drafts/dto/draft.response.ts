import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Draft, DraftConflictReply, DraftKind, DraftListReply, DraftReply } from '@techit/contract/api-types';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { DRAFT_KINDS } from './draft-input.dto';

export class DraftResponse implements Draft {
  @ApiProperty() _id: string;
  @ApiProperty({ enum: DRAFT_KINDS }) kind: DraftKind;
  @ApiProperty({ type: String, nullable: true, description: 'The post whose edit page this draft belongs to' })
  postId: string | null;
  @ApiProperty({ minimum: 1, description: 'Send it back with the next save' }) version: number;
  @ApiPropertyOptional({ maxLength: LIMITS.postTitleMax }) title?: string;
  @ApiPropertyOptional() desc?: string;
  @ApiPropertyOptional({ maxLength: LIMITS.postBodyMax, description: 'Markdown' }) body?: string;
  @ApiPropertyOptional({ enum: ['', ...CATEGORIES] }) category?: Category | '';
  @ApiPropertyOptional() link1?: string;
  @ApiPropertyOptional() link2?: string;
  @ApiPropertyOptional() pic?: string;
  @ApiPropertyOptional({ type: [String] }) links?: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'The last save' }) updatedAt: string;
}

export class DraftReplyResponse implements DraftReply {
  @ApiProperty({ type: DraftResponse }) draft: DraftResponse;
}

export class DraftListResponse implements DraftListReply {
  @ApiProperty({ type: [DraftResponse] }) drafts: DraftResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class DraftConflictResponse implements DraftConflictReply {
  @ApiProperty({ example: 'This draft was changed elsewhere (version 4 is stored; this save started from 3)' })
  error: string;
  @ApiProperty({ type: DraftResponse, description: 'The stored draft' }) draft: DraftResponse;
}
