import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { COMMENT_PAGE } from '@techit/contract/limits';
import { DEFAULT_POST_VIEW, POST_VIEWS, type PostView } from '@techit/contract/enums';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto';
import { THREAD_READ } from '../thread-read';
import { COMMENT_ID } from './post-input.dto';

/** The `view` query parameter, declared once for every post route that answers posts. */
export function ViewProperty(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      enum: POST_VIEWS,
      default: DEFAULT_POST_VIEW,
      description:
        "full (the default): likes lists every liker and comments the whole conversation. compact: likes holds only the caller's own id, lists carry the 3 newest comments and a single post the first 50 (commentsNextCursor pages on). likesCount and commentsCount are the totals in both.",
    }),
    IsOptional(),
    IsIn(POST_VIEWS, { message: `view must be one of: ${POST_VIEWS.join(', ')}` }),
  );
}

/** The query of the routes that answer one post (GET /api/posts/:id and every post write). */
export class PostViewQueryDto {
  @ViewProperty()
  view?: PostView;
}

/** GET /api/userposts/:userId */
export class UserPostsQueryDto extends PageQueryDto {
  @ViewProperty()
  view?: PostView;
}

/** GET /api/posts/:id/comments: oldest first, by cursor. */
export class CommentsQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: COMMENT_PAGE.maxSize,
    description: `Page size (${COMMENT_PAGE.defaultSize} when only a cursor is sent). Without limit and cursor: every comment.`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(COMMENT_PAGE.maxSize, { message: `limit must be at most ${COMMENT_PAGE.maxSize}` })
  limit?: number;

  @ApiPropertyOptional({ description: "The nextCursor of the previous page (or a post's commentsNextCursor)." })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;

  @ApiPropertyOptional({
    description: `A comment of the post: answer its thread instead, its ancestors (root first), the comment, then its replies and theirs (oldest first, down to ${THREAD_READ.depth} levels below it, ${THREAD_READ.pageSize} at a time; cursor: the nextCursor of the answer before, which carries only further replies). Not with limit. 404 when it is not a comment of the post.`,
  })
  @IsOptional()
  @IsString({ message: 'thread must be a comment id' })
  @Matches(COMMENT_ID, { message: 'thread must be a comment id' })
  thread?: string;
}

/** GET /api/posts/:id/revisions: newest first, by cursor. */
export class RevisionsQueryDto {
  @ApiPropertyOptional({ description: 'The nextCursor of the previous page.' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @MaxLength(200, { message: 'That cursor is not valid; start again from the first page' })
  cursor?: string;
}
