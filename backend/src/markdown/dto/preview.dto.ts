import { ApiProperty } from '@nestjs/swagger';
import { MARKDOWN_KINDS, type MarkdownKind } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { IsDefined, IsIn, IsString, ValidateBy, type ValidationArguments } from 'class-validator';

/** How long each kind's source may be: the limit of the field it previews (a post's desc is a `comment` too, ≤ 400). */
export const MARKDOWN_MAX: Record<MarkdownKind, number> = {
  post: LIMITS.postBodyMax,
  comment: LIMITS.commentMax,
  notice: LIMITS.noticeDescMax,
};

function maxFor(args: ValidationArguments): number {
  const kind = (args.object as { kind?: unknown }).kind;
  return MARKDOWN_MAX[(MARKDOWN_KINDS as readonly unknown[]).includes(kind) ? (kind as MarkdownKind) : 'post'];
}

export class PreviewDto {
  @ApiProperty({
    description: `Markdown as typed (not trimmed). At most ${LIMITS.postBodyMax} characters for \`post\`, ${LIMITS.commentMax} for \`comment\`, ${LIMITS.noticeDescMax} for \`notice\``,
    maxLength: LIMITS.postBodyMax,
  })
  @IsDefined({ message: 'markdown is required' })
  @IsString({ message: 'markdown must be text' })
  @ValidateBy({
    name: 'markdownLength',
    validator: {
      validate: (value: unknown, args) =>
        typeof value !== 'string' || (args !== undefined && value.length <= maxFor(args)),
      defaultMessage: (args) => `markdown must be at most ${args ? maxFor(args) : LIMITS.postBodyMax} characters`,
    },
  })
  markdown: string;

  @ApiProperty({ enum: MARKDOWN_KINDS, description: 'Which field the text is for: the rules it is rendered with' })
  @IsDefined({ message: 'kind is required' })
  @IsIn(MARKDOWN_KINDS, { message: `kind must be one of: ${MARKDOWN_KINDS.join(', ')}` })
  kind: MarkdownKind;
}
