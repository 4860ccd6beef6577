import { ApiPropertyOptional } from '@nestjs/swagger';
import { TAG_SUGGESTIONS } from '@techit/contract/limits';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class TagSuggestQueryDto {
  @ApiPropertyOptional({
    description: 'The start of a tag name, normalised like a tag (a leading # and case dropped); empty: every tag',
  })
  @IsOptional()
  @IsString({ message: 'prefix must be text' })
  @MaxLength(40, { message: 'prefix must be at most 40 characters' })
  prefix?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: TAG_SUGGESTIONS.maxSize, default: TAG_SUGGESTIONS.defaultSize })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(TAG_SUGGESTIONS.maxSize, { message: `limit must be at most ${TAG_SUGGESTIONS.maxSize}` })
  limit?: number;
}
