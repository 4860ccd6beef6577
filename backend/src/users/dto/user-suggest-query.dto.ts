import { ApiPropertyOptional } from '@nestjs/swagger';
import { USER_SUGGESTIONS } from '@techit/contract/limits';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class UserSuggestQueryDto {
  @ApiPropertyOptional({
    description: `The start of a userName, any letter case, an optional leading @; under ${USER_SUGGESTIONS.minPrefix} characters answers an empty list`,
  })
  @IsOptional()
  @IsString({ message: 'prefix must be text' })
  @MaxLength(40, { message: 'prefix must be at most 40 characters' })
  prefix?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: USER_SUGGESTIONS.maxSize, default: USER_SUGGESTIONS.defaultSize })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(USER_SUGGESTIONS.maxSize, { message: `limit must be at most ${USER_SUGGESTIONS.maxSize}` })
  limit?: number;
}
