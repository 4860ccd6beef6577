import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BookmarkReply, BookmarksReply } from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { PostIdDto } from '../posts/dto/post-input.dto';
import { BookmarksQueryDto } from './dto/bookmarks-query.dto';
import { BookmarkReplyResponse, BookmarksResponse } from './dto/bookmark.response';
import { BookmarksService } from './bookmarks.service';

@ApiTags('bookmarks')
@Controller()
export class BookmarksController {
  constructor(private readonly bookmarks: BookmarksService) {}

  @Put('bookmark')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Save a post to your bookmarks (saving twice changes nothing)' })
  @ApiOkResponse({ type: BookmarkReplyResponse })
  @ApiErrors(400, 404)
  bookmark(@CurrentUser() me: AuthUser, @Body() body: PostIdDto): Promise<BookmarkReply> {
    return this.bookmarks.bookmark(me, body.postId);
  }

  @Put('unbookmark')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Take a post out of your bookmarks (when not saved, changes nothing)' })
  @ApiOkResponse({ type: BookmarkReplyResponse })
  @ApiErrors(400, 404)
  unbookmark(@CurrentUser() me: AuthUser, @Body() body: PostIdDto): Promise<BookmarkReply> {
    return this.bookmarks.unbookmark(me, body.postId);
  }

  @Get('bookmarks')
  @Authenticated()
  @ApiOperation({
    summary: 'Your bookmarks, newest saved first (only yours: nobody else can list them)',
    description:
      "Compact posts (as the feeds carry them with view=compact), each with bookmarkedAt. q searches within them in GET /api/search's query language (same index; the list keeps its order, no typo step); tag keeps the posts carrying that tag; both combine. Paged by cursor (limit 1–50, default 20).",
  })
  @ApiOkResponse({ type: BookmarksResponse })
  @ApiErrors(400)
  list(@CurrentUser() me: AuthUser, @Query() query: BookmarksQueryDto): Promise<BookmarksReply> {
    return this.bookmarks.list(me, query);
  }
}
