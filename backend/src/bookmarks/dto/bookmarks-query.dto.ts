import { ApiPropertyOptional } from '@nestjs/swagger';
import { BOOKMARKS, SEARCH } from '@techit/contract/limits';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class BookmarksQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: BOOKMARKS.maxLimit, default: BOOKMARKS.defaultLimit })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(BOOKMARKS.maxLimit, { message: `limit must be at most ${BOOKMARKS.maxLimit}` })
  limit?: number;

  @ApiPropertyOptional({
    description: 'The nextCursor of the previous page (same q and tag): newest saved first, no repeats, no skips.',
  })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;

  @ApiPropertyOptional({
    maxLength: SEARCH.queryMax,
    description:
      'Search within your bookmarks, in GET /api/search\'s query language (words, "a phrase", -excluded, @userName, tag:name); the list keeps its order. Blank: all of them.',
  })
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(SEARCH.queryMax, { message: `q must be at most ${SEARCH.queryMax} characters` })
  q?: string;

  @ApiPropertyOptional({
    description: "Only the saved posts carrying this tag (normalised like a post's tag: case and a leading # dropped)",
  })
  @IsOptional()
  @IsString({ message: 'tag must be text' })
  tag?: string;
}
