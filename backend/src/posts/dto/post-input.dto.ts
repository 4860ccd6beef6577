import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHttpUrl, IsPictureUrl } from '../../common/url-rules';
import { Trim, TrimToUndefined } from '../../common/validation';

const TITLE_MESSAGE = `Title must be at most ${LIMITS.postTitleMax} characters`;
const DESC_MESSAGE = `Description must be at most ${LIMITS.postDescMax} characters`;
const LINK_MESSAGE = 'must be an http(s) URL of at most 2048 characters';

/*
 * The pipe reports a field's top-most failed check (see common/validation.ts), so each field lists
 * its checks top-down: presence, then type, then format or length. A missing title is told it is
 * required, `title: 5` that it must be text, and only a real string that it is too long.
 */

export class CreatePostDto {
  @ApiProperty({ maxLength: LIMITS.postTitleMax })
  @Trim()
  @IsNotEmpty({ message: 'Title is required' })
  @IsString({ message: 'Title must be text' })
  @MaxLength(LIMITS.postTitleMax, { message: TITLE_MESSAGE })
  title: string;

  @ApiProperty({ maxLength: LIMITS.postDescMax })
  @Trim()
  @IsNotEmpty({ message: 'Description is required' })
  @IsString({ message: 'Description must be text' })
  @MaxLength(LIMITS.postDescMax, { message: DESC_MESSAGE })
  desc: string;

  @ApiPropertyOptional({ description: 'The picture: a URL from POST /api/upload or an http(s) URL; stored as photo' })
  @TrimToUndefined()
  @IsOptional()
  @IsString({ message: 'pic must be text' })
  @IsPictureUrl({ message: 'pic must be an uploaded image URL or an http(s) URL' })
  pic?: string;

  @ApiPropertyOptional({ enum: ['', ...CATEGORIES] })
  @TrimToUndefined()
  @IsOptional()
  @IsIn(CATEGORIES, { message: `category must be one of: ${CATEGORIES.join(', ')} (or empty)` })
  category?: Category;

  @ApiPropertyOptional({ description: 'Code link (http or https)' })
  @TrimToUndefined()
  @IsOptional()
  @IsHttpUrl({ message: `link1 ${LINK_MESSAGE}` })
  link1?: string;

  @ApiPropertyOptional({ description: 'Demo link (http or https)' })
  @TrimToUndefined()
  @IsOptional()
  @IsHttpUrl({ message: `link2 ${LINK_MESSAGE}` })
  link2?: string;
}

export class EditPostDto {
  @ApiProperty({ maxLength: LIMITS.postTitleMax })
  @Trim()
  @IsNotEmpty({ message: 'Title is required' })
  @IsString({ message: 'Title must be text' })
  @MaxLength(LIMITS.postTitleMax, { message: TITLE_MESSAGE })
  title: string;

  @ApiProperty({ enum: CATEGORIES })
  @Trim()
  @IsNotEmpty({ message: 'Category is required' })
  @IsIn(CATEGORIES, { message: `Category must be one of: ${CATEGORIES.join(', ')}` })
  category: Category;

  @ApiProperty({ maxLength: LIMITS.postDescMax })
  @Trim()
  @IsNotEmpty({ message: 'Description is required' })
  @IsString({ message: 'Description must be text' })
  @MaxLength(LIMITS.postDescMax, { message: DESC_MESSAGE })
  desc: string;

  @ApiPropertyOptional({ description: 'Code link; empty removes it' })
  @TrimToUndefined()
  @IsOptional()
  @IsHttpUrl({ message: `link1 ${LINK_MESSAGE}` })
  link1?: string;

  @ApiPropertyOptional({ description: 'Demo link; empty removes it' })
  @TrimToUndefined()
  @IsOptional()
  @IsHttpUrl({ message: `link2 ${LINK_MESSAGE}` })
  link2?: string;

  @ApiPropertyOptional({ description: 'A new picture URL; empty keeps the current one' })
  @TrimToUndefined()
  @IsOptional()
  @IsString({ message: 'pic must be text' })
  @IsPictureUrl({ message: 'pic must be an uploaded image URL or an http(s) URL' })
  pic?: string;
}

export class PostIdDto {
  @ApiProperty()
  @IsNotEmpty({ message: 'postId is required' })
  @IsString({ message: 'postId must be text' })
  postId: string;
}

export class CommentDto extends PostIdDto {
  @ApiProperty({ maxLength: LIMITS.commentMax })
  @Trim()
  @IsNotEmpty({ message: 'Comment is required' })
  @IsString({ message: 'Comment must be text' })
  @MaxLength(LIMITS.commentMax, { message: `Comment must be at most ${LIMITS.commentMax} characters` })
  text: string;
}
