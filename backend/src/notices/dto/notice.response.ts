import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Notice, NoticeListReply, NoticeReply } from '@techit/contract/api-types';
import { AuthorResponse } from '../../users/dto/user.response';

export class NoticeResponse implements Notice {
  @ApiProperty() _id: string;
  @ApiPropertyOptional({
    description:
      'Present (true) only when the moderators removed it: whole for its author and the moderators, else no text and no author',
  })
  removed?: boolean;
  @ApiProperty() desc: string;
  @ApiProperty({ description: 'desc rendered from Markdown (the small set), sanitised; rendered when written' })
  descHtml: string;
  @ApiProperty({ type: [String] }) links: string[];
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: AuthorResponse }) postedBy: AuthorResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class NoticeListResponse implements NoticeListReply {
  @ApiProperty({ type: [NoticeResponse] }) notices: NoticeResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class NoticeReplyResponse implements NoticeReply {
  @ApiProperty({ type: NoticeResponse }) notice: NoticeResponse;
}
