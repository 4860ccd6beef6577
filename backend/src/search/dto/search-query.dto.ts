import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SearchType } from '@techit/contract/api-types';
import { SEARCH } from '@techit/contract/limits';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const SEARCH_TYPES: readonly SearchType[] = ['posts', 'notices', 'users', 'tags'];

export class SearchQueryDto {
  @ApiProperty({
    maxLength: SEARCH.queryMax,
    description:
      'Words (all must match), "a phrase", -excluded, @userName (author), tag:name (posts carrying the tag; normalised like a post\'s tag, an invalid name is a 400). A wanted word of 1–2 letters matches the start of words. Other text is accepted; operators it cannot read are taken as words.',
  })
  @IsString({ message: 'q must be text' })
  @MaxLength(SEARCH.queryMax, { message: `q must be at most ${SEARCH.queryMax} characters` })
  q!: string;

  @ApiPropertyOptional({ enum: SEARCH_TYPES, default: 'posts' })
  @IsOptional()
  @IsIn(SEARCH_TYPES, { message: `type must be one of ${SEARCH_TYPES.join(', ')}` })
  type?: SearchType;

  @ApiPropertyOptional({ minimum: 1, maximum: SEARCH.maxLimit, default: SEARCH.defaultLimit })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(SEARCH.maxLimit, { message: `limit must be at most ${SEARCH.maxLimit}` })
  limit?: number;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page (same q and type).' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(100, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}
