import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type {
  AdminUsersReply,
  ModerationLogReply,
  PasswordResetLinkReply,
  ProfileUser,
  ReportQueueReply,
  ReportReply,
  ResolveReportsReply,
  SuspensionReply,
} from '@techit/contract/api-types';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { ApiErrors } from '../common/api-errors.decorator';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { publicOrigin } from '../http/public-origin';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { ProfileUserResponse } from '../users/dto/user.response';
import {
  AdminUsersQueryDto,
  CreateReportDto,
  ModerationLogQueryDto,
  ReportQueueQueryDto,
  ResolveReportsDto,
  SetRoleDto,
  SuspendDto,
  UnsuspendDto,
} from './dto/moderation-input.dto';
import {
  AdminUsersResponse,
  ModerationLogResponse,
  PasswordResetLinkResponse,
  ReportQueueResponse,
  ReportReplyResponse,
  ResolveReportsResponse,
  SuspensionResponse,
} from './dto/moderation.response';
import { ModerationService } from './moderation.service';

@ApiTags('moderation')
@Controller()
export class ModerationController {
  constructor(
    private readonly moderation: ModerationService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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

  @Get('admin/users')
  @Authenticated()
  @ApiOperation({
    summary: "The admin area's users list (moderators and admins)",
    description:
      'Newest first, 20 a page (cursor for the next); with q, only names containing it (case-insensitive). Each with its effective role and suspension.',
  })
  @ApiOkResponse({ type: AdminUsersResponse })
  @ApiErrors(400, 403)
  adminUsers(@CurrentUser() me: AuthUser, @Query() query: AdminUsersQueryDto): Promise<AdminUsersReply> {
    return this.moderation.adminUsers(me, query);
  }

  @Post('admin/users/:id/password-reset-link')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'A one-time password reset link for a user, to pass on (admins only)',
    description:
      'The link the reset mail would carry (valid one hour, once; any earlier link keeps working until used or expired). Not in the public moderation log.',
  })
  @ApiOkResponse({ type: PasswordResetLinkResponse })
  @ApiErrors(400, 403, 404)
  passwordResetLink(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
  ): Promise<PasswordResetLinkReply> {
    return this.moderation.passwordResetLink(me, id, publicOrigin(request, this.config.publicUrl));
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
