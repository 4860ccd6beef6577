import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { NoticeSearchResult, PostSearchResult, SearchReply, UserSearchResult } from '@techit/contract/api-types';
import { TagResponse } from '../../tags/dto/tag.response';
import { AuthorResponse } from '../../users/dto/user.response';

const SNIPPET = 'HTML whose only markup is <mark> around matched words; everything else is escaped';

export class PostSearchResultResponse implements PostSearchResult {
  @ApiProperty() _id: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: SNIPPET }) snippet: string;
  @ApiProperty({ type: AuthorResponse }) postedBy: AuthorResponse;
  @ApiProperty({ type: [String], description: "The post's tags, in its order" }) tags: string[];
  @ApiProperty() likesCount: number;
  @ApiProperty() commentsCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class NoticeSearchResultResponse implements NoticeSearchResult {
  @ApiProperty() _id: string;
  @ApiProperty({ description: SNIPPET }) snippet: string;
  @ApiProperty({ type: AuthorResponse }) postedBy: AuthorResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class UserSearchResultResponse implements UserSearchResult {
  @ApiProperty() _id: string;
  @ApiProperty() userName: string;
  @ApiProperty() pic: string;
  @ApiProperty() position: string;
  @ApiProperty() bio: string;
}

export class SearchResponse implements SearchReply {
  @ApiProperty({
    description: 'One kind of result, by type: posts, notices, users or tags (a tag as GET /api/tags answers it)',
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(PostSearchResultResponse) },
        { $ref: getSchemaPath(NoticeSearchResultResponse) },
        { $ref: getSchemaPath(UserSearchResultResponse) },
        { $ref: getSchemaPath(TagResponse) },
      ],
    },
  })
  results: (PostSearchResultResponse | NoticeSearchResultResponse | UserSearchResultResponse | TagResponse)[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
  @ApiPropertyOptional({
    description: 'Only when nothing matched as typed and a one-letter typo was corrected: the query shown',
  })
  correctedQuery?: string;
}
