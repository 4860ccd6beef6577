import { Body, Controller, Delete, Get, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type {
  CommentsReply,
  LikeReply,
  Post as ApiPost,
  PostListReply,
  PostReply,
  PostRevisionsReply,
  TopPostsReply,
  UserPostsReply,
} from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { Authenticated } from '../auth/authenticated.decorator';
import { ApiErrors } from '../common/api-errors.decorator';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { FeedQueryDto, TopPostsQueryDto } from './dto/feed-query.dto';
import { CommentDto, CreatePostDto, EditCommentDto, EditPostDto, PostIdDto } from './dto/post-input.dto';
import { CommentsQueryDto, PostViewQueryDto, RevisionsQueryDto, UserPostsQueryDto } from './dto/post-view-query.dto';
import {
  CommentsResponse,
  LikeReplyResponse,
  PostListResponse,
  PostReplyResponse,
  PostResponse,
  PostRevisionsResponse,
  TopPostsResponse,
  UserPostsResponse,
} from './dto/post.response';
import { PostsService } from './posts.service';

@ApiTags('posts')
@Controller()
export class PostsController {
  constructor(private readonly posts: PostsService) {}

  @Get('posts')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'The feed, newest first (hot: by likes, distinct commenters and age)',
    description:
      'following: posts by the users the caller (token, else userId) follows. hot: highest ' +
      'log10(max(1, likesCount + 2 × distinct commenters)) + createdAt in seconds / 45000 first ' +
      '(docs/decisions/033-hot-feed.md). tag: the posts of `tag`. tags: the posts of the tags the ' +
      "caller follows (a token is needed: 400 without). With a token, the posts of the caller's " +
      "muted tags are left out of every feed (but a tag's own feed shows that tag), and so are the " +
      'posts of the users the caller mutes (every feed, no exception). Page by page ' +
      'or by cursor (a cursor belongs to its feed).',
  })
  @ApiOkResponse({ type: PostListResponse })
  @ApiErrors(400, 404)
  feed(@Query() query: FeedQueryDto, @CurrentUser() viewer: AuthUser | null): Promise<PostListReply> {
    return this.posts.feed(query, viewer);
  }

  @Get('posts/:id')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'One post with its likers and its whole conversation',
    description:
      "view=compact: likes holds the caller's own id when a token is sent and the caller likes the post, and comments the first 50 (commentsNextCursor pages on).",
  })
  @ApiOkResponse({ type: PostReplyResponse })
  @ApiErrors(400, 404)
  async get(
    @Param('id') id: string,
    @Query() query: PostViewQueryDto,
    @CurrentUser() viewer: AuthUser | null,
  ): Promise<PostReply> {
    return { post: await this.posts.get(id, viewer, query.view) };
  }

  @Get('posts/:id/comments')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: "A post's comments, oldest first, or one comment's thread",
    description:
      'Without limit and cursor: the whole conversation (the spec). With them, a page at a time: limit per page (default 50, at most 100); cursor: the nextCursor of the page before. ' +
      'thread=<commentId>: that comment in its place (for permalinks and "continue this thread"): its ancestors (root first), the comment, then the replies below it (oldest first); see the thread parameter.',
  })
  @ApiOkResponse({ type: CommentsResponse })
  @ApiErrors(400, 404)
  comments(
    @Param('id') id: string,
    @Query() query: CommentsQueryDto,
    @CurrentUser() viewer: AuthUser | null,
  ): Promise<CommentsReply> {
    return this.posts.comments(id, query, viewer);
  }

  @Get('posts/:id/revisions')
  @Authenticated()
  @ApiOperation({
    summary: "A post's edit history, newest first (its author or an admin)",
    description:
      'One revision per edit that changed something: who, when, and only the changed fields, each from → to. 50 a page; cursor: the nextCursor of the page before.',
  })
  @ApiOkResponse({ type: PostRevisionsResponse })
  @ApiErrors(400, 403, 404)
  revisions(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Query() query: RevisionsQueryDto,
  ): Promise<PostRevisionsReply> {
    return this.posts.revisions(me, id, query);
  }

  @Get('top-posts')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'The 5 posts with the most likes plus distinct commenters',
    description:
      "window=day|week|month: among the posts created in that span; all (the default): every post. With a token, the posts of the reader's muted tags are left out.",
  })
  @ApiOkResponse({ type: TopPostsResponse })
  @ApiErrors(400)
  async top(@Query() query: TopPostsQueryDto, @CurrentUser() viewer: AuthUser | null): Promise<TopPostsReply> {
    return { posts: await this.posts.top(query.window, viewer) };
  }

  @Get('userposts/:userId')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: "A user's posts, newest first" })
  @ApiOkResponse({ type: UserPostsResponse })
  @ApiErrors(400, 404)
  async userPosts(
    @Param('userId') userId: string,
    @Query() query: UserPostsQueryDto,
    @CurrentUser() viewer: AuthUser | null,
  ): Promise<UserPostsReply> {
    const page = await this.posts.userPosts(userId, query, viewer);
    return { userPosts: page.posts, nextCursor: page.nextCursor };
  }

  @Post('createpost')
  @Authenticated()
  @RateLimit('content')
  @Idempotent()
  @ApiOperation({ summary: 'Create a post' })
  @ApiCreatedResponse({ type: PostReplyResponse })
  @ApiErrors(400)
  async create(
    @CurrentUser() me: AuthUser,
    @Body() body: CreatePostDto,
    @Query() query: PostViewQueryDto,
  ): Promise<PostReply> {
    return { post: await this.posts.create(me, body, query.view) };
  }

  @Put('editpost/:id')
  @Authenticated()
  @ApiOperation({ summary: 'Edit your post (accepts a JSON body sent without a JSON content type)' })
  @ApiOkResponse({ type: PostResponse })
  @ApiErrors(400, 403, 404)
  edit(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Body() body: EditPostDto,
    @Query() query: PostViewQueryDto,
  ): Promise<ApiPost> {
    return this.posts.edit(me, id, body, query.view);
  }

  @Delete('deletepost/:id')
  @Authenticated()
  @ApiOperation({ summary: 'Delete a post (its author or an admin); its likes and comments go with it' })
  @ApiOkResponse({ type: PostResponse, description: 'The deleted post' })
  @ApiErrors(403, 404)
  delete(@CurrentUser() me: AuthUser, @Param('id') id: string, @Query() query: PostViewQueryDto): Promise<ApiPost> {
    return this.posts.delete(me, id, query.view);
  }

  @Put('like')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Like a post (liking twice changes nothing)' })
  @ApiOkResponse({ type: LikeReplyResponse })
  @ApiErrors(400, 404)
  like(@CurrentUser() me: AuthUser, @Body() body: PostIdDto, @Query() query: PostViewQueryDto): Promise<LikeReply> {
    return this.posts.like(me, body.postId, query.view);
  }

  @Put('unlike')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Take back a like (when not liked, changes nothing)' })
  @ApiOkResponse({ type: LikeReplyResponse })
  @ApiErrors(400, 404)
  unlike(@CurrentUser() me: AuthUser, @Body() body: PostIdDto, @Query() query: PostViewQueryDto): Promise<LikeReply> {
    return this.posts.unlike(me, body.postId, query.view);
  }

  @Put('comment')
  @Authenticated()
  @RateLimit('content')
  @Idempotent()
  @ApiOperation({
    summary: 'Comment on a post, or reply to one of its comments (parentId)',
    description:
      'parentId: a live comment of the same post (404 when the post has no such comment, 409 when it is a "[deleted]" placeholder).',
  })
  @ApiOkResponse({ type: PostResponse, description: 'The post with its comments' })
  @ApiErrors(400, 404, 409)
  comment(@CurrentUser() me: AuthUser, @Body() body: CommentDto, @Query() query: PostViewQueryDto): Promise<ApiPost> {
    return this.posts.comment(me, body.postId, { text: body.text, parentId: body.parentId }, query.view);
  }

  @Put('comment/:postId/:commentId')
  @Authenticated()
  @ApiOperation({
    summary: 'Edit your comment',
    description:
      'Its author only (admins delete, they do not rewrite). The rules of a new comment apply; the text is rendered again and editedAt set. The same text changes nothing. A "[deleted]" placeholder is 404.',
  })
  @ApiOkResponse({ type: PostResponse, description: 'The post with its comments' })
  @ApiErrors(400, 403, 404)
  editComment(
    @CurrentUser() me: AuthUser,
    @Param('postId') postId: string,
    @Param('commentId') commentId: string,
    @Body() body: EditCommentDto,
    @Query() query: PostViewQueryDto,
  ): Promise<ApiPost> {
    return this.posts.editComment(me, postId, commentId, body.text, query.view);
  }

  @Delete('comment/:postId/:commentId')
  @Authenticated()
  @ApiOperation({
    summary: "Delete a comment (its author, the post's author or an admin)",
    description:
      'A comment with replies stays as a "[deleted]" placeholder (no author, no text, deleted: true) so they stay readable; one without goes, and so does each placeholder above it left without replies. A placeholder is 404.',
  })
  @ApiOkResponse({ type: PostResponse })
  @ApiErrors(403, 404)
  deleteComment(
    @CurrentUser() me: AuthUser,
    @Param('postId') postId: string,
    @Param('commentId') commentId: string,
    @Query() query: PostViewQueryDto,
  ): Promise<ApiPost> {
    return this.posts.deleteComment(me, postId, commentId, query.view);
  }
}
