import { Controller, Get, Param, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { TagReply, TagsReply } from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { TagSuggestQueryDto } from './dto/tag-query.dto';
import { TagReplyResponse, TagsReplyResponse } from './dto/tag.response';
import { TagsService } from './tags.service';

const PREF_NOTE =
  'Idempotent. A tag is followed or muted, never both: following a muted tag unmutes it, muting a followed one unfollows it.';

@ApiTags('tags')
@Controller()
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get('tags')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Tags starting with a prefix, most-used first (autocomplete)',
    description: 'Only tags some post carries. limit 1–50, default 10.',
  })
  @ApiOkResponse({ type: TagsReplyResponse })
  @ApiErrors(400)
  async suggest(@Query() query: TagSuggestQueryDto, @CurrentUser() viewer: AuthUser | null): Promise<TagsReply> {
    return { tags: await this.tags.suggest(query, viewer) };
  }

  @Get('tags/:name')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'One tag with its counts, and whether the reader follows or mutes it',
    description: 'A valid name no post carries yet answers zeros (its page is empty, not missing); an invalid one 400.',
  })
  @ApiOkResponse({ type: TagReplyResponse })
  @ApiErrors(400)
  async get(@Param('name') name: string, @CurrentUser() viewer: AuthUser | null): Promise<TagReply> {
    return { tag: await this.tags.get(name, viewer) };
  }

  @Put('tags/:name/follow')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Follow a tag: its posts come in GET /api/posts?feed=tags', description: PREF_NOTE })
  @ApiOkResponse({ type: TagReplyResponse })
  @ApiErrors(400)
  async follow(@CurrentUser() me: AuthUser, @Param('name') name: string): Promise<TagReply> {
    return { tag: await this.tags.setPref(me, name, 'follow') };
  }

  @Put('tags/:name/unfollow')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Stop following a tag', description: PREF_NOTE })
  @ApiOkResponse({ type: TagReplyResponse })
  @ApiErrors(400)
  async unfollow(@CurrentUser() me: AuthUser, @Param('name') name: string): Promise<TagReply> {
    return { tag: await this.tags.setPref(me, name, 'unfollow') };
  }

  @Put('tags/:name/mute')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({
    summary: "Mute a tag: its posts are left out of the reader's feeds and top posts (not its own tag page)",
    description: PREF_NOTE,
  })
  @ApiOkResponse({ type: TagReplyResponse })
  @ApiErrors(400)
  async mute(@CurrentUser() me: AuthUser, @Param('name') name: string): Promise<TagReply> {
    return { tag: await this.tags.setPref(me, name, 'mute') };
  }

  @Put('tags/:name/unmute')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Stop muting a tag', description: PREF_NOTE })
  @ApiOkResponse({ type: TagReplyResponse })
  @ApiErrors(400)
  async unmute(@CurrentUser() me: AuthUser, @Param('name') name: string): Promise<TagReply> {
    return { tag: await this.tags.setPref(me, name, 'unmute') };
  }
}
