import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import type { SearchReply } from '@techit/contract/api-types';
import { ApiErrors } from '../common/api-errors.decorator';
import { SearchQueryDto } from './dto/search-query.dto';
import {
  NoticeSearchResultResponse,
  PostSearchResultResponse,
  SearchResponse,
  UserSearchResultResponse,
} from './dto/search.response';
import { SearchService } from './search.service';
import { TagResponse } from '../tags/dto/tag.response';

@ApiTags('search')
@ApiExtraModels(PostSearchResultResponse, NoticeSearchResultResponse, UserSearchResultResponse, TagResponse)
@Controller()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('search')
  // A token is optional, as on the feed: with one, the reader's muted tags' posts are left out.
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Search posts (default), notices, users or tags',
    description:
      "Posts: an exact title first (at any age), then title hits over desc and body hits among the query's newest 2,000 matches, then the newest. When nothing matches as typed, one typo in a word of 5+ letters is forgiven and correctedQuery says which query was answered. tag:name narrows to posts carrying every named tag (posts only; an invalid name is a 400); tags with no word list their posts newest first. With a token, the posts of the caller's muted tags are left out, except those of tags the query names. Tags: those in use whose name starts with q (normalised as a tag: case and a leading # dropped; not a tag's start: 400), most-used first, each as GET /api/tags answers it (following/muted for the caller).",
  })
  @ApiOkResponse({ type: SearchResponse })
  @ApiErrors(400)
  find(@Query() query: SearchQueryDto, @CurrentUser() viewer: AuthUser | null): Promise<SearchReply> {
    return this.search.search(query, viewer);
  }
}
