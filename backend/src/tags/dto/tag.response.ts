import { ApiProperty } from '@nestjs/swagger';
import type { Tag, TagReply, TagsReply } from '@techit/contract/api-types';

export class TagResponse implements Tag {
  @ApiProperty({ example: 'javascript' }) name: string;
  @ApiProperty({ description: 'Posts carrying the tag' }) postsCount: number;
  @ApiProperty({ description: 'Users following the tag' }) followersCount: number;
  @ApiProperty({ description: 'The reader follows it (false for a visitor)' }) following: boolean;
  @ApiProperty({ description: "The reader mutes it: its posts are left out of the reader's feeds and top posts" })
  muted: boolean;
}

export class TagReplyResponse implements TagReply {
  @ApiProperty({ type: TagResponse }) tag: TagResponse;
}

export class TagsReplyResponse implements TagsReply {
  @ApiProperty({ type: [TagResponse] }) tags: TagResponse[];
}
