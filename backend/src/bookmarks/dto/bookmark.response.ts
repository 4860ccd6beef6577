import { ApiProperty } from '@nestjs/swagger';
import type { BookmarkReply, BookmarksReply } from '@techit/contract/api-types';
import { PostResponse } from '../../posts/dto/post.response';

export class BookmarkReplyResponse implements BookmarkReply {
  @ApiProperty() _id: string;
  @ApiProperty({ description: 'Whether the post is now in your bookmarks' }) bookmarked: boolean;
}

export class BookmarkedPostResponse extends PostResponse {
  @ApiProperty({ format: 'date-time', description: 'When you saved it' }) bookmarkedAt: string;
}

export class BookmarksResponse implements BookmarksReply {
  @ApiProperty({
    type: [BookmarkedPostResponse],
    description: 'Newest saved first, compact as the feeds carry them with view=compact',
  })
  posts: BookmarkedPostResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'The cursor of the next page; null on the last' })
  nextCursor: string | null;
}
