import { ApiPropertyOptional } from '@nestjs/swagger';
import { FEEDS, type Feed, type PostView, TOP_POST_WINDOWS, type TopPostWindow } from '@techit/contract/enums';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto';
import { ViewProperty } from './post-view-query.dto';

export class FeedQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: FEEDS,
    default: 'for-you',
    description:
      "tag: the posts carrying `tag` (shown even when the reader mutes that tag). tags: the posts carrying any tag the reader follows, each once (needs a token; 400 without, like following without userId). Every feed leaves out the posts of the reader's muted tags.",
  })
  @IsOptional()
  @IsIn(FEEDS, { message: `feed must be one of: ${FEEDS.join(', ')}` })
  feed?: Feed;

  @ApiPropertyOptional({ description: 'Whose following feed, when no token is sent' })
  @IsOptional()
  @IsString({ message: 'userId must be text' })
  userId?: string;

  @ApiPropertyOptional({ description: "feed=tag: which tag (normalised like a post's tag)" })
  @IsOptional()
  @IsString({ message: 'tag must be text' })
  @MaxLength(40, { message: 'tag must be at most 40 characters' })
  tag?: string;

  @ViewProperty()
  view?: PostView;
}

/** GET /api/top-posts */
export class TopPostsQueryDto {
  @ApiPropertyOptional({
    enum: TOP_POST_WINDOWS,
    default: 'all',
    description: 'Only posts created within the last day, week or month; all (the default): every post',
  })
  @IsOptional()
  @IsIn(TOP_POST_WINDOWS, { message: `window must be one of: ${TOP_POST_WINDOWS.join(', ')}` })
  window?: TopPostWindow;
}
