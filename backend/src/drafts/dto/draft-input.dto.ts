import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import type { DraftKind } from '@techit/contract/api-types';
import { LIMITS } from '@techit/contract/limits';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto';

const VERSION_MAX = 2_147_483_647;

export const DRAFT_KINDS: readonly DraftKind[] = ['post', 'notice'];

/**
 * Optional text kept exactly as typed (no trimming: a draft is restored byte for byte), capped at
 * the publish limit. Kind-specific limits (a notice's longer desc) are checked by the service.
 */
function DraftText(name: string, max: number, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ maxLength: max, description }),
    IsOptional(),
    IsString({ message: `${name} must be text` }),
    MaxLength(max, { message: `${name} must be at most ${max} characters` }),
  );
}

/**
 * The fields of a draft, all optional and lenient: a draft may be empty or half-typed (a link
 * is not checked beyond its length), but never longer than what could be published.
 */
export class DraftFieldsDto {
  @DraftText('title', LIMITS.postTitleMax, 'Post drafts')
  title?: string;

  @DraftText(
    'desc',
    Math.max(LIMITS.postDescMax, LIMITS.noticeDescMax),
    `At most ${LIMITS.postDescMax} characters in a post draft, ${LIMITS.noticeDescMax} in a notice draft`,
  )
  desc?: string;

  @DraftText('body', LIMITS.postBodyMax, 'Post drafts: the Markdown body')
  body?: string;

  @ApiPropertyOptional({ enum: ['', ...CATEGORIES], description: 'Post drafts' })
  @IsOptional()
  @IsIn(['', ...CATEGORIES], { message: `category must be one of: ${CATEGORIES.join(', ')} (or empty)` })
  category?: Category | '';

  @DraftText('link1', LIMITS.linkMax, 'Post drafts; not checked beyond its length')
  link1?: string;

  @DraftText('link2', LIMITS.linkMax, 'Post drafts; not checked beyond its length')
  link2?: string;

  @DraftText('pic', LIMITS.linkMax, 'Post drafts: a picture URL')
  pic?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: LIMITS.postTagsMax,
    description: 'Post drafts: the tags chosen so far; not normalised or checked beyond count and length',
  })
  @IsOptional()
  @IsArray({ message: 'tags must be a list' })
  @ArrayMaxSize(LIMITS.postTagsMax, { message: `A post draft can have at most ${LIMITS.postTagsMax} tags` })
  @IsString({ each: true, message: 'Each tag must be text' })
  // One more than a tag's limit: a leading '#' is stripped only when the post is published.
  @MaxLength(LIMITS.postTagMax + 1, { each: true, message: `Each tag must be at most ${LIMITS.postTagMax} characters` })
  tags?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: LIMITS.noticeLinksMax, description: 'Notice drafts' })
  @IsOptional()
  @IsArray({ message: 'links must be a list' })
  @ArrayMaxSize(LIMITS.noticeLinksMax, {
    message: `A notice draft can have at most ${LIMITS.noticeLinksMax} links`,
  })
  @IsString({ each: true, message: 'Each link must be text' })
  @MaxLength(LIMITS.linkMax, { each: true, message: `Each link must be at most ${LIMITS.linkMax} characters` })
  links?: string[];
}

export class CreateDraftDto extends DraftFieldsDto {
  @ApiProperty({ enum: DRAFT_KINDS })
  @IsNotEmpty({ message: 'kind is required' })
  @IsIn(DRAFT_KINDS, { message: 'kind must be post or notice' })
  kind: DraftKind;

  @ApiPropertyOptional({ description: 'The post whose edit page this draft belongs to (yours); post drafts only' })
  @IsOptional()
  @IsString({ message: 'postId must be text' })
  postId?: string;
}

export class UpdateDraftDto extends DraftFieldsDto {
  @ApiProperty({
    minimum: 1,
    maximum: VERSION_MAX,
    description: 'The version this save started from (the last one the editor got)',
  })
  @IsNotEmpty({ message: 'version is required' })
  @IsInt({ message: 'version must be a whole number' })
  @Min(1, { message: 'version must be 1 or more' })
  // The column is a 32-bit integer on PostgreSQL: a larger value would fail there as a 500.
  @Max(VERSION_MAX, { message: `version must be at most ${VERSION_MAX}` })
  version: number;
}

export class DraftListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the edit draft of this post' })
  @IsOptional()
  @IsString({ message: 'postId must be text' })
  postId?: string;
}

/**
 * `draftId` of createpost, createnotice and editpost: a draft of the caller's to delete once the
 * request succeeds. Any text is taken: publishing never fails because of a draft.
 */
export function DraftIdField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      description:
        'A draft of yours to delete once this succeeds; an unknown draft, or one that is not yours, is left alone',
    }),
    IsOptional(),
    IsString({ message: 'draftId must be text' }),
    MaxLength(100, { message: 'draftId must be a draft id' }),
  );
}
