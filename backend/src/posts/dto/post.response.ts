import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  Comment,
  CommentsReply,
  FieldChange,
  LikeReply,
  Post,
  PostRevision,
  PostRevisionsReply,
  RevisionChanges,
  PostListReply,
  PostReply,
  TopPost,
  TopPostsReply,
  UserPostsReply,
} from '@techit/contract/api-types';
import { CATEGORIES, type Category } from '@techit/contract/enums';
import { LIMITS } from '@techit/contract/limits';
import { AuthorResponse } from '../../users/dto/user.response';

export class CommentResponse implements Comment {
  @ApiProperty() _id: string;
  @ApiProperty() text: string;
  @ApiProperty({
    description:
      'text rendered from Markdown (the small set: no headings, no images), sanitised; rendered when written',
  })
  textHtml: string;
  @ApiProperty({
    type: AuthorResponse,
    description: "The author; for a deleted comment kept for its replies, { _id: '', userName: '[deleted]', pic: '' }",
  })
  postedBy: AuthorResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'The comment this one answers; null at the top' })
  parentId: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When last edited; null if never' })
  editedAt: string | null;
  @ApiProperty({ description: 'True for the "[deleted]" placeholder of a deleted comment that has replies' })
  deleted: boolean;
  @ApiPropertyOptional({
    description:
      "Present (true) only when the moderators removed it: whole for its author and the moderators, else no text and postedBy { _id: '', userName: '[removed by the moderators]', pic: '' }",
  })
  removed?: boolean;
  @ApiPropertyOptional({
    enum: [true],
    description: "Present (true) only when the signed-in reader mutes the comment's author: show it collapsed",
  })
  muted?: true;
}

export class PostResponse implements Post {
  @ApiProperty() _id: string;
  @ApiPropertyOptional({
    description:
      'Present (true) only on a post the moderators removed (it is in no list): whole for its author and the moderators, else an empty placeholder',
  })
  removed?: boolean;
  @ApiProperty() title: string;
  @ApiProperty() desc: string;
  @ApiProperty({
    description: 'desc rendered from Markdown (the small set: no headings, no images), sanitised; lists carry it too',
  })
  descHtml: string;
  @ApiPropertyOptional({
    maxLength: LIMITS.postBodyMax,
    description:
      "Single-post replies only (GET /api/posts/:id, create, edit, delete, comment, uncomment; never lists): the Markdown article, '' when none",
  })
  body?: string;
  @ApiPropertyOptional({
    description: "Single-post replies only: body rendered from Markdown (CommonMark + GFM), sanitised; '' when no body",
  })
  bodyHtml?: string;
  @ApiProperty({ description: 'Picture URL, or empty' }) photo: string;
  @ApiProperty({ enum: ['', ...CATEGORIES] }) category: Category | '';
  @ApiProperty({ description: 'Code link, or empty' }) link1: string;
  @ApiProperty({ description: 'Demo link, or empty' }) link2: string;
  @ApiProperty({ type: [String], description: "0 to 4 tag names in the author's order (lists carry them too)" })
  tags: string[];
  @ApiProperty({
    type: [String],
    description: "Ids of the users who liked it (view=compact: only the caller's own id, when the caller likes it)",
  })
  likes: string[];
  @ApiProperty({
    type: [CommentResponse],
    description: 'Oldest first, all of them (view=compact: a list carries the 3 newest, a single post the first 50)',
  })
  comments: CommentResponse[];
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'view=compact single-post replies: the cursor of GET /api/posts/:id/comments after the comments carried; null when all are here',
  })
  commentsNextCursor?: string | null;
  @ApiProperty() likesCount: number;
  @ApiProperty() commentsCount: number;
  @ApiProperty({ type: AuthorResponse }) postedBy: AuthorResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the author last changed the post; null when never (an edit that changes nothing does not count)',
  })
  editedAt: string | null;
  @ApiProperty({
    description:
      "Whether the caller (the bearer of the token) saved the post to their bookmarks; false without a token. Never anyone else's.",
  })
  bookmarked: boolean;
}

export class FieldChangeResponse implements FieldChange {
  @ApiProperty() from: string;
  @ApiProperty() to: string;
}

export class RevisionChangesResponse implements RevisionChanges {
  @ApiPropertyOptional({ type: FieldChangeResponse }) title?: FieldChangeResponse;
  @ApiPropertyOptional({ type: FieldChangeResponse }) desc?: FieldChangeResponse;
  @ApiPropertyOptional({ type: FieldChangeResponse, description: 'The tag names, comma-joined' })
  tags?: FieldChangeResponse;
  @ApiPropertyOptional({ type: FieldChangeResponse }) body?: FieldChangeResponse;
  @ApiPropertyOptional({ type: FieldChangeResponse }) category?: FieldChangeResponse;
  @ApiPropertyOptional({ type: FieldChangeResponse }) link1?: FieldChangeResponse;
  @ApiPropertyOptional({ type: FieldChangeResponse }) link2?: FieldChangeResponse;
  @ApiPropertyOptional({ type: FieldChangeResponse }) photo?: FieldChangeResponse;
}

export class PostRevisionResponse implements PostRevision {
  @ApiProperty() _id: string;
  @ApiProperty({ type: AuthorResponse }) editedBy: AuthorResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: RevisionChangesResponse, description: 'Only the fields this edit changed, each from → to' })
  changes: RevisionChangesResponse;
}

export class PostRevisionsResponse implements PostRevisionsReply {
  @ApiProperty({ type: [PostRevisionResponse], description: 'Newest first, 50 a page' })
  revisions: PostRevisionResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'Send as cursor for the next page; null on the last page' })
  nextCursor: string | null;
}

export class LikeReplyResponse implements LikeReply {
  @ApiProperty() _id: string;
  @ApiProperty({
    type: [String],
    description: "Ids of everyone who now likes it (view=compact: the caller's id after a like, empty after an unlike)",
  })
  likes: string[];
  @ApiProperty() likesCount: number;
}

export class PostListResponse implements PostListReply {
  @ApiProperty({ type: [PostResponse] }) posts: PostResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'Send as cursor for the next page; null on the last page' })
  nextCursor: string | null;
}

export class UserPostsResponse implements UserPostsReply {
  @ApiProperty({ type: [PostResponse] }) userPosts: PostResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class PostReplyResponse implements PostReply {
  @ApiProperty({ type: PostResponse }) post: PostResponse;
}

export class CommentsResponse implements CommentsReply {
  @ApiProperty({ type: [CommentResponse] }) comments: CommentResponse[];
  @ApiProperty({ type: String, nullable: true, description: 'Send as cursor for the next page; null on the last page' })
  nextCursor: string | null;
}

export class TopPostResponse implements TopPost {
  @ApiProperty() _id: string;
  @ApiProperty() title: string;
  @ApiProperty({ type: AuthorResponse }) postedBy: AuthorResponse;
  @ApiProperty() likesCount: number;
  @ApiProperty() commentsCount: number;
}

export class TopPostsResponse implements TopPostsReply {
  @ApiProperty({ type: [TopPostResponse] }) posts: TopPostResponse[];
}
