import { Body, Controller, Get, Headers, HttpCode, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type {
  NotificationSettings,
  NotificationsReply,
  StreamTicketReply,
  UnreadCountReply,
} from '@techit/contract/api-types';
import { NOTIFICATION_KINDS } from '@techit/contract/enums';
import { NOTIFICATIONS } from '@techit/contract/limits';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiErrors } from '../common/api-errors.decorator';
import { BadRequestError } from '../common/app-errors';
import { decodeCursor } from '../common/cursor';
import { NotificationsQueryDto, NotificationStreamQueryDto } from './dto/notifications-query.dto';
import {
  NotificationSettingsResponse,
  NotificationsReplyResponse,
  StreamTicketResponse,
  UnreadCountResponse,
} from './dto/notification.response';
import { NotificationStreams } from './notification-streams';
import { NotificationsService } from './notifications.service';
import { StreamAuthGuard, type StreamReader } from './stream-auth.guard';

@ApiTags('notifications')
@Controller()
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly streams: NotificationStreams,
  ) {}

  @Get('notifications')
  @Authenticated()
  @ApiOperation({ summary: 'Your notifications, newest first, with the unread count' })
  @ApiOkResponse({ type: NotificationsReplyResponse })
  @ApiErrors(400)
  list(@CurrentUser() me: AuthUser, @Query() query: NotificationsQueryDto): Promise<NotificationsReply> {
    return this.notifications.list(me.id, query);
  }

  @Get('notifications/unread-count')
  @Authenticated()
  @ApiOperation({ summary: 'How many of your notifications are unread' })
  @ApiOkResponse({ type: UnreadCountResponse })
  unreadCount(@CurrentUser() me: AuthUser): Promise<UnreadCountReply> {
    return this.notifications.unreadCount(me.id);
  }

  @Put('notifications/read')
  @Authenticated()
  @ApiOperation({ summary: 'Mark notifications read: {ids: [...]} (yours; others are ignored) or {all: true}' })
  @ApiBody({
    schema: {
      oneOf: [
        {
          type: 'object',
          properties: { ids: { type: 'array', items: { type: 'string' }, maxItems: NOTIFICATIONS.markReadMaxIds } },
          required: ['ids'],
        },
        { type: 'object', properties: { all: { type: 'boolean', enum: [true] } }, required: ['all'] },
      ],
    },
  })
  @ApiOkResponse({ type: UnreadCountResponse })
  @ApiErrors(400)
  markRead(@CurrentUser() me: AuthUser, @Body() body: unknown): Promise<UnreadCountReply> {
    return this.notifications.markRead(me.id, body);
  }

  @Get('notification-settings')
  @Authenticated()
  @ApiOperation({ summary: 'Which kinds of notification you get (all on until switched off)' })
  @ApiOkResponse({ type: NotificationSettingsResponse })
  settings(@CurrentUser() me: AuthUser): Promise<NotificationSettings> {
    return this.notifications.settings(me.id);
  }

  @Put('notification-settings')
  @Authenticated()
  @ApiOperation({ summary: 'Switch kinds on (true) or off (false); any subset; answers all of them' })
  @ApiBody({
    schema: {
      type: 'object',
      properties: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, { type: 'boolean' }])),
      additionalProperties: false,
    },
  })
  @ApiOkResponse({ type: NotificationSettingsResponse })
  @ApiErrors(400)
  updateSettings(@CurrentUser() me: AuthUser, @Body() body: unknown): Promise<NotificationSettings> {
    return this.notifications.updateSettings(me.id, body);
  }

  @Post('notifications/stream-ticket')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: `A single-use ticket (${NOTIFICATIONS.ticketSeconds} s) for the stream's ?ticket=, for EventSource, which cannot send headers`,
  })
  @ApiOkResponse({ type: StreamTicketResponse })
  streamTicket(@CurrentUser() me: AuthUser): Promise<StreamTicketReply> {
    return this.notifications.issueTicket(me.id);
  }

  @Get('notifications/stream')
  @UseGuards(StreamAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Server-Sent Events: `retry:`, then `event: notification` with {unreadCount}, then one per change ({unreadCount, notification?}, `id:` to resume with Last-Event-ID), and a `: ping` heartbeat. Authorization header or ?ticket=; never the login token in the URL.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'The event stream (never ends on its own)' })
  @ApiErrors(400, 401)
  async stream(
    @Req() request: FastifyRequest & { user: StreamReader },
    @Res() reply: FastifyReply,
    @Query() query: NotificationStreamQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
  ): Promise<void> {
    const resumeFrom = lastEventId ?? query.lastEventId;
    let after = null;
    if (resumeFrom !== undefined && resumeFrom !== '') {
      try {
        after = decodeCursor(resumeFrom);
      } catch {
        throw new BadRequestError('That Last-Event-ID is not valid; reconnect without it');
      }
    }
    await this.streams.serve(request, reply, request.user.id, after);
  }
}
