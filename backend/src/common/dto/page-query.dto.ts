import { ApiPropertyOptional } from '@nestjs/swagger';
import { PAGINATION } from '@techit/contract/limits';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** page (1-based offset paging, as the original client uses) or cursor (keyset paging). */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1, description: 'Page number, 1-based. Ignored when cursor is sent.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be 1 or more' })
  @Max(1_000_000, { message: 'page is too large; use the cursor to go deeper' })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: PAGINATION.maxPageSize })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(PAGINATION.maxPageSize, { message: `limit must be at most ${PAGINATION.maxPageSize}` })
  limit?: number;

  @ApiPropertyOptional({
    description: 'The nextCursor of the previous page: pages by key, so no item repeats or is skipped.',
  })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}
