import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHttpUrl } from '../../common/url-rules';
import { Trim } from '../../common/validation';

/** Trims each entry and drops blank ones: the web form sends its empty link inputs as ''. */
function CompactList(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    Array.isArray(value)
      ? value.map((item: unknown) => (typeof item === 'string' ? item.trim() : item)).filter((item) => item !== '')
      : value,
  );
}

/**
 * Validators run nearest-the-property first and the pipe reports only the first failure
 * (stopAtFirstError), so each field lists its checks bottom-up: the type check last in the
 * source, so that `links: "x"` is told it must be a list, not that it is a bad URL.
 */
export class CreateNoticeDto {
  @ApiProperty({ maxLength: LIMITS.noticeDescMax })
  @Trim()
  @MaxLength(LIMITS.noticeDescMax, { message: `Description must be at most ${LIMITS.noticeDescMax} characters` })
  @IsNotEmpty({ message: 'Description is required' })
  @IsString({ message: 'Description must be text' })
  desc: string;

  @ApiPropertyOptional({ type: [String], maxItems: LIMITS.noticeLinksMax, description: 'http(s) URLs' })
  @CompactList()
  @IsOptional()
  @IsHttpUrl({ each: true, message: 'Each link must be an http(s) URL of at most 2048 characters' })
  @ArrayMaxSize(LIMITS.noticeLinksMax, { message: `A notice can have at most ${LIMITS.noticeLinksMax} links` })
  @IsArray({ message: 'links must be a list' })
  links?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: LIMITS.noticeTagsMax })
  @CompactList()
  @IsOptional()
  @MaxLength(LIMITS.noticeTagMax, { each: true, message: `Each tag must be at most ${LIMITS.noticeTagMax} characters` })
  @IsString({ each: true, message: 'Each tag must be text' })
  @ArrayMaxSize(LIMITS.noticeTagsMax, { message: `A notice can have at most ${LIMITS.noticeTagsMax} tags` })
  @IsArray({ message: 'tags must be a list' })
  tags?: string[];
}
