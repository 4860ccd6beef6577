import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  Notification,
  NotificationSettings,
  NotificationsReply,
  StreamTicketReply,
  UnreadCountReply,
} from '@techit/contract/api-types';
import { NOTIFICATION_KINDS, type NotificationKind } from '@techit/contract/enums';
import { AuthorResponse } from '../../users/dto/user.response';

class NotificationPostResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() title!: string;
}

class NotificationExcerptResponse {
  @ApiProperty() _id!: string;
  @ApiProperty({ description: 'The start of the text (at most 140 characters)' }) excerpt!: string;
}

export class NotificationResponse implements Notification {
  @ApiProperty() _id!: string;
  @ApiProperty({ enum: NOTIFICATION_KINDS }) kind!: NotificationKind;
  @ApiProperty({ type: [AuthorResponse], description: 'Newest first; a like group shows its 3 latest likers' })
  actors!: AuthorResponse[];
  @ApiProperty({ description: 'Every actor: "ada and 12 others" is actors[0] and actorsCount - 1' })
  actorsCount!: number;
  @ApiPropertyOptional({ type: NotificationPostResponse }) post?: NotificationPostResponse;
  @ApiPropertyOptional({ type: NotificationExcerptResponse }) comment?: NotificationExcerptResponse;
  @ApiPropertyOptional({ type: NotificationExcerptResponse }) notice?: NotificationExcerptResponse;
  @ApiProperty() read!: boolean;
  @ApiProperty({ description: 'When it last changed (a like group moves up with each new liker)' })
  createdAt!: string;
}

export class NotificationsReplyResponse implements NotificationsReply {
  @ApiProperty({ type: [NotificationResponse] }) notifications!: NotificationResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
  @ApiProperty() unreadCount!: number;
}

export class UnreadCountResponse implements UnreadCountReply {
  @ApiProperty() unreadCount!: number;
}

export class NotificationSettingsResponse implements NotificationSettings {
  @ApiProperty() like!: boolean;
  @ApiProperty() comment!: boolean;
  @ApiProperty() reply!: boolean;
  @ApiProperty() mention!: boolean;
  @ApiProperty() follow!: boolean;
}

export class StreamTicketResponse implements StreamTicketReply {
  @ApiProperty() ticket!: string;
  @ApiProperty() expiresInSeconds!: number;
}
