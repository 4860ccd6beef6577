import { Body, Controller, Delete, Get, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Notice, NoticeListReply, NoticeReply } from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Authenticated } from '../auth/authenticated.decorator';
import { OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { ApiErrors } from '../common/api-errors.decorator';
import { PageQueryDto } from '../common/dto/page-query.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { CreateNoticeDto } from './dto/create-notice.dto';
import { NoticeListResponse, NoticeReplyResponse, NoticeResponse } from './dto/notice.response';
import { NoticesService } from './notices.service';

@ApiTags('notices')
@Controller()
export class NoticesController {
  constructor(private readonly notices: NoticesService) {}

  @Get('allnotices')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Every notice, newest first',
    description: 'With a token, the notices of the users the caller mutes are left out.',
  })
  @ApiOkResponse({ type: NoticeListResponse })
  @ApiErrors(400)
  all(@Query() query: PageQueryDto, @CurrentUser() viewer: AuthUser | null): Promise<NoticeListReply> {
    return this.notices.all(query, viewer);
  }

  @Get('usernotices/:userId')
  @ApiOperation({ summary: "A user's notices, newest first" })
  @ApiOkResponse({ type: NoticeListResponse })
  @ApiErrors(400, 404)
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  byUser(
    @Param('userId') userId: string,
    @Query() query: PageQueryDto,
    @CurrentUser() viewer: AuthUser | null,
  ): Promise<NoticeListReply> {
    return this.notices.byUser(userId, query, viewer);
  }

  @Post('createnotice')
  @Authenticated()
  @RateLimit('content')
  @Idempotent()
  @ApiOperation({ summary: 'Create a notice with up to 3 links' })
  @ApiCreatedResponse({ type: NoticeReplyResponse })
  @ApiErrors(400)
  async create(@CurrentUser() me: AuthUser, @Body() body: CreateNoticeDto): Promise<NoticeReply> {
    return { notice: await this.notices.create(me, body) };
  }

  @Delete('deletenotice/:id')
  @Authenticated()
  @ApiOperation({ summary: 'Delete a notice (its author or an admin)' })
  @ApiOkResponse({ type: NoticeResponse, description: 'The deleted notice' })
  @ApiErrors(403, 404)
  delete(@CurrentUser() me: AuthUser, @Param('id') id: string): Promise<Notice> {
    return this.notices.delete(me, id);
  }
}
