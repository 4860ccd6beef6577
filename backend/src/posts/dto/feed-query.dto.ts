import { ApiPropertyOptional } from '@nestjs/swagger';
import { FEEDS, type Feed, type PostView } from '@techit/contract/enums';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto';
import { ViewProperty } from './post-view-query.dto';

export class FeedQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: FEEDS, default: 'for-you' })
  @IsOptional()
  @IsIn(FEEDS, { message: `feed must be one of: ${FEEDS.join(', ')}` })
  feed?: Feed;

  @ApiPropertyOptional({ description: 'Whose following feed, when no token is sent' })
  @IsOptional()
  @IsString({ message: 'userId must be text' })
  userId?: string;

  @ViewProperty()
  view?: PostView;
}
