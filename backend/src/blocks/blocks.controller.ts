import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BlockReply, MuteReply, RelatedUsersReply } from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { BlocksService } from './blocks.service';
import {
  BlockReplyResponse,
  MuteReplyResponse,
  RelatedUsersResponse,
  RelationsQueryDto,
  UserIdDto,
} from './dto/user-relation.dto';

@ApiTags('blocks')
@Controller()
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @Put('block')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({
    summary: 'Block a user (blocking twice changes nothing)',
    description:
      'They can no longer follow you, comment on or reply to your posts and comments, like your posts or mention you: each attempt is a 403 and writes nothing. The follows between you end, both ways, and their notifications you have not read are withdrawn. Not yourself (400).',
  })
  @ApiOkResponse({ type: BlockReplyResponse })
  @ApiErrors(400, 404)
  block(@CurrentUser() me: AuthUser, @Body() body: UserIdDto): Promise<BlockReply> {
    return this.blocks.block(me, body.userId);
  }

  @Put('unblock')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Unblock a user (when not blocked, changes nothing; ended follows stay ended)' })
  @ApiOkResponse({ type: BlockReplyResponse })
  @ApiErrors(400, 404)
  unblock(@CurrentUser() me: AuthUser, @Body() body: UserIdDto): Promise<BlockReply> {
    return this.blocks.unblock(me, body.userId);
  }

  @Put('mute')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({
    summary: 'Mute a user (muting twice changes nothing; they are not told)',
    description:
      'Their posts and notices leave your feeds, search and the notices list (their profile still shows them), their comments come with muted: true so the web app can collapse them, and their likes, comments, replies, follows and mentions no longer notify you. Not yourself (400).',
  })
  @ApiOkResponse({ type: MuteReplyResponse })
  @ApiErrors(400, 404)
  mute(@CurrentUser() me: AuthUser, @Body() body: UserIdDto): Promise<MuteReply> {
    return this.blocks.mute(me, body.userId);
  }

  @Put('unmute')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Unmute a user (when not muted, changes nothing)' })
  @ApiOkResponse({ type: MuteReplyResponse })
  @ApiErrors(400, 404)
  unmute(@CurrentUser() me: AuthUser, @Body() body: UserIdDto): Promise<MuteReply> {
    return this.blocks.unmute(me, body.userId);
  }

  @Get('blocks')
  @Authenticated()
  @ApiOperation({ summary: 'The users you block, newest first (only yours)' })
  @ApiOkResponse({ type: RelatedUsersResponse })
  @ApiErrors(400)
  blocksList(@CurrentUser() me: AuthUser, @Query() query: RelationsQueryDto): Promise<RelatedUsersReply> {
    return this.blocks.list(me, 'blocks', query);
  }

  @Get('mutes')
  @Authenticated()
  @ApiOperation({ summary: 'The users you mute, newest first (only yours)' })
  @ApiOkResponse({ type: RelatedUsersResponse })
  @ApiErrors(400)
  mutesList(@CurrentUser() me: AuthUser, @Query() query: RelationsQueryDto): Promise<RelatedUsersReply> {
    return this.blocks.list(me, 'mutes', query);
  }
}
