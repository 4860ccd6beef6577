import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHttpUrl, IsPictureUrl } from '../../common/url-rules';
import { LinkText, Trim, TrimToUndefined } from '../../common/validation';

/** A required, trimmed text field with a length limit. */
function RequiredText(label: string, max: number): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ maxLength: max }),
    Trim(),
    IsNotEmpty({ message: `${label} is required` }),
    IsString({ message: `${label} must be text` }),
    MaxLength(max, { message: `${label} must be at most ${max} characters` }),
  );
}

/** An optional http(s) link (`https://` added when none is typed); blank counts as not sent. */
function OptionalLink(name: string, description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description }),
    LinkText(),
    IsOptional(),
    IsHttpUrl({ message: `${name} must be an http(s) URL of at most ${LIMITS.linkMax} characters` }),
  );
}

/** An optional picture URL: one this server issued, or an http(s) URL. */
function OptionalPicture(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description }),
    TrimToUndefined(),
    IsOptional(),
    IsString({ message: 'pic must be text' }),
    IsPictureUrl({ message: 'pic must be an uploaded image URL or an http(s) URL' }),
  );
}

export class CreatePostDto {
  @RequiredText('Title', LIMITS.postTitleMax)
  title: string;

  @RequiredText('Description', LIMITS.postDescMax)
  desc: string;

  @OptionalPicture('The picture: a URL from POST /api/upload or an http(s) URL; stored as photo')
  pic?: string;

  @ApiPropertyOptional({ enum: ['', ...CATEGORIES] })
  @TrimToUndefined()
  @IsOptional()
  @IsIn(CATEGORIES, { message: `category must be one of: ${CATEGORIES.join(', ')} (or empty)` })
  category?: Category;

  @OptionalLink('link1', 'Code link (http or https)')
  link1?: string;

  @OptionalLink('link2', 'Demo link (http or https)')
  link2?: string;
}

export class EditPostDto {
  @RequiredText('Title', LIMITS.postTitleMax)
  title: string;

  @ApiProperty({ enum: CATEGORIES })
  @Trim()
  @IsNotEmpty({ message: 'Category is required' })
  @IsIn(CATEGORIES, { message: `Category must be one of: ${CATEGORIES.join(', ')}` })
  category: Category;

  @RequiredText('Description', LIMITS.postDescMax)
  desc: string;

  @OptionalLink('link1', 'Code link; empty or missing removes it')
  link1?: string;

  @OptionalLink('link2', 'Demo link; empty or missing removes it')
  link2?: string;

  @OptionalPicture('A new picture URL; empty or missing keeps the current one')
  pic?: string;
}

export class PostIdDto {
  @ApiProperty()
  @IsNotEmpty({ message: 'postId is required' })
  @IsString({ message: 'postId must be text' })
  postId: string;
}

export class CommentDto extends PostIdDto {
  @RequiredText('Comment', LIMITS.commentMax)
  text: string;
}
