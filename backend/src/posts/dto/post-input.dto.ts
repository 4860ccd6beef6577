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
 * Validators run nearest-the-property first and the pipe reports only the first failure
 * (stopAtFirstError), so each field lists its checks bottom-up: "required" nearest the property,
 * then the type, then the format or length. A missing title is told it is required, `title: 5`
 * that it must be text, and only a real string that it is too long.
 */

export class CreatePostDto {
  @ApiProperty({ maxLength: LIMITS.postTitleMax })
  @Trim()
  @MaxLength(LIMITS.postTitleMax, { message: TITLE_MESSAGE })
  @IsString({ message: 'Title must be text' })
  @IsNotEmpty({ message: 'Title is required' })
  title: string;

  @ApiProperty({ maxLength: LIMITS.postDescMax })
  @Trim()
  @MaxLength(LIMITS.postDescMax, { message: DESC_MESSAGE })
  @IsString({ message: 'Description must be text' })
  @IsNotEmpty({ message: 'Description is required' })
  desc: string;

  @ApiPropertyOptional({ description: 'The picture: a URL from POST /api/upload or an http(s) URL; stored as photo' })
  @TrimToUndefined()
  @IsOptional()
  @IsPictureUrl({ message: 'pic must be an uploaded image URL or an http(s) URL' })
  @IsString({ message: 'pic must be text' })
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
  @MaxLength(LIMITS.postTitleMax, { message: TITLE_MESSAGE })
  @IsString({ message: 'Title must be text' })
  @IsNotEmpty({ message: 'Title is required' })
  title: string;

  @ApiProperty({ enum: CATEGORIES })
  @Trim()
  @IsIn(CATEGORIES, { message: `Category must be one of: ${CATEGORIES.join(', ')}` })
  @IsNotEmpty({ message: 'Category is required' })
  category: Category;

  @ApiProperty({ maxLength: LIMITS.postDescMax })
  @Trim()
  @MaxLength(LIMITS.postDescMax, { message: DESC_MESSAGE })
  @IsString({ message: 'Description must be text' })
  @IsNotEmpty({ message: 'Description is required' })
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
  @IsPictureUrl({ message: 'pic must be an uploaded image URL or an http(s) URL' })
  @IsString({ message: 'pic must be text' })
  pic?: string;
}

export class PostIdDto {
  @ApiProperty()
  @IsString({ message: 'postId must be text' })
  @IsNotEmpty({ message: 'postId is required' })
  postId: string;
}

export class CommentDto extends PostIdDto {
  @ApiProperty({ maxLength: LIMITS.commentMax })
  @Trim()
  @MaxLength(LIMITS.commentMax, { message: `Comment must be at most ${LIMITS.commentMax} characters` })
  @IsString({ message: 'Comment must be text' })
  @IsNotEmpty({ message: 'Comment is required' })
  text: string;
}
