import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type {
  ModerationLogReply,
  ProfileUser,
  ReportQueueReply,
  ReportReply,
  ResolveReportsReply,
  SuspensionReply,
} from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { ProfileUserResponse } from '../users/dto/user.response';
import {
  CreateReportDto,
  ModerationLogQueryDto,
  ReportQueueQueryDto,
  ResolveReportsDto,
  SetRoleDto,
  SuspendDto,
  UnsuspendDto,
} from './dto/moderation-input.dto';
import {
  ModerationLogResponse,
  ReportQueueResponse,
  ReportReplyResponse,
  ResolveReportsResponse,
  SuspensionResponse,
} from './dto/moderation.response';
import { ModerationService } from './moderation.service';

@ApiTags('moderation')
@Controller()
export class ModerationController {
  constructor(private readonly moderation: ModerationService) {}

  @Post('reports')
  @HttpCode(201)
  @Authenticated()
  @RateLimit('reports')
  @ApiOperation({
    summary: 'Report a post, comment, notice or user to the moderators',
    description:
      'A second open report of the same target by the same person changes nothing and answers the first. Your own content or yourself: 400.',
  })
  @ApiCreatedResponse({ type: ReportReplyResponse })
  @ApiErrors(400, 404)
  async report(@CurrentUser() me: AuthUser, @Body() body: CreateReportDto): Promise<ReportReply> {
    return { report: await this.moderation.report(me, body) };
  }

  @Get('reports')
  @Authenticated()
  @ApiOperation({
    summary: 'The report queue (moderators and admins): reports grouped by target, worst first',
    description: 'Most reports first, then the latest report; 20 targets a page, cursor for the next.',
  })
  @ApiOkResponse({ type: ReportQueueResponse })
  @ApiErrors(400, 403)
  queue(@CurrentUser() me: AuthUser, @Query() query: ReportQueueQueryDto): Promise<ReportQueueReply> {
    return this.moderation.queue(me, query);
  }

  @Put('reports/:targetKind/:targetId/resolve')
  @Authenticated()
  @ApiOperation({
    summary: "Resolve a target's open reports (moderators and admins)",
    description:
      'dismiss: nothing else changes. remove: the post, comment or notice stays only for its author and the moderators (a post leaves every list, search and feed file). suspend-author: removes it too and suspends its author (a user target: that user) until `until`, or indefinitely, ending their sessions. Every resolution is written to the public moderation log with its reason.',
  })
  @ApiOkResponse({ type: ResolveReportsResponse })
  @ApiErrors(400, 403, 404)
  resolve(
    @CurrentUser() me: AuthUser,
    @Param('targetKind') targetKind: string,
    @Param('targetId') targetId: string,
    @Body() body: ResolveReportsDto,
  ): Promise<ResolveReportsReply> {
    return this.moderation.resolve(me, targetKind, targetId, body);
  }

  @Get('moderation-log')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'The public moderation log, newest first',
    description: "Each action's time, target and reason; the moderator's name only for moderators and admins.",
  })
  @ApiOkResponse({ type: ModerationLogResponse })
  @ApiErrors(400)
  log(@CurrentUser() viewer: AuthUser | null, @Query() query: ModerationLogQueryDto): Promise<ModerationLogReply> {
    return this.moderation.log(viewer, query);
  }

  @Put('admin/users/:id/role')
  @Authenticated()
  @ApiOperation({ summary: "Set a user's stored role (admins only): user (a member), moderator or admin" })
  @ApiOkResponse({ type: ProfileUserResponse })
  @ApiErrors(400, 403, 404)
  setRole(@CurrentUser() me: AuthUser, @Param('id') id: string, @Body() body: SetRoleDto): Promise<ProfileUser> {
    return this.moderation.setRole(me, id, body);
  }

  @Put('admin/users/:id/suspend')
  @Authenticated()
  @ApiOperation({
    summary: 'Suspend an account (moderators and admins), without a report',
    description:
      'Until `until` (in the future) or indefinitely: its sessions end and signing in answers 403 until then. Not yourself, a moderator or an admin (403). Logged as suspend.',
  })
  @ApiOkResponse({ type: SuspensionResponse })
  @ApiErrors(400, 403, 404)
  suspend(@CurrentUser() me: AuthUser, @Param('id') id: string, @Body() body: SuspendDto): Promise<SuspensionReply> {
    return this.moderation.suspend(me, id, body);
  }

  @Put('admin/users/:id/unsuspend')
  @Authenticated()
  @ApiOperation({ summary: 'Lift a suspension (moderators and admins); 409 when the account is not suspended' })
  @ApiOkResponse({ type: SuspensionResponse })
  @ApiErrors(400, 403, 404, 409)
  unsuspend(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Body() body: UnsuspendDto,
  ): Promise<SuspensionReply> {
    return this.moderation.unsuspend(me, id, body);
  }
}
