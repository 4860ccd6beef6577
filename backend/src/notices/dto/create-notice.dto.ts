import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { withLinkScheme } from '@techit/contract/url-rules';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHttpUrl } from '../../common/url-rules';
import { DraftIdField } from '../../drafts/dto/draft-input.dto';
import { say, Trim } from '../../common/validation';

/**
 * Trims each entry and drops blank ones: the web form sends its empty link inputs as ''. Links
 * also get `https://` when they name no scheme (withLinkScheme).
 */
function CompactList(each: (text: string) => string = (text) => text): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    Array.isArray(value)
      ? value
          .map((item: unknown) => (typeof item === 'string' ? item.trim() : item))
          .filter((item) => item !== '')
          .map((item: unknown) => (typeof item === 'string' ? each(item) : item))
      : value,
  );
}

export class CreateNoticeDto {
  @ApiProperty({ maxLength: LIMITS.noticeDescMax })
  @Trim()
  @IsNotEmpty(say('Description is required', 'Write what the notice says.'))
  @IsString(say('Description must be text', 'The description must be text.'))
  @MaxLength(
    LIMITS.noticeDescMax,
    say(
      `Description must be at most ${LIMITS.noticeDescMax} characters`,
      `A notice can have at most ${LIMITS.noticeDescMax} characters.`,
    ),
  )
  desc: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: LIMITS.noticeLinksMax,
    description: 'http(s) URLs; one typed without a scheme (example.com/x) gets https://',
  })
  @CompactList(withLinkScheme)
  @IsOptional()
  @IsArray(say('links must be a list', 'The links must be a list.'))
  @ArrayMaxSize(
    LIMITS.noticeLinksMax,
    say(
      `A notice can have at most ${LIMITS.noticeLinksMax} links`,
      `A notice can have at most ${LIMITS.noticeLinksMax} links.`,
    ),
  )
  @IsHttpUrl({
    each: true,
    ...say(
      `Each link must be an http(s) URL of at most ${LIMITS.linkMax} characters`,
      'Each link must be a web address, such as example.com/page.',
    ),
  })
  links?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: LIMITS.noticeTagsMax })
  @CompactList()
  @IsOptional()
  @IsArray({ message: 'tags must be a list' })
  @ArrayMaxSize(LIMITS.noticeTagsMax, { message: `A notice can have at most ${LIMITS.noticeTagsMax} tags` })
  @IsString({ each: true, message: 'Each tag must be text' })
  @MaxLength(LIMITS.noticeTagMax, { each: true, message: `Each tag must be at most ${LIMITS.noticeTagMax} characters` })
  tags?: string[];

  @DraftIdField()
  draftId?: string;
}
