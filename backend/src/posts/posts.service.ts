import { forwardRef, Inject, Injectable } from '@nestjs/common';
import type { Comment, LikeReply, Post, PostRevisionsReply, TopPost } from '@techit/contract/api-types';
import {
  DEFAULT_FEED,
  DEFAULT_POST_VIEW,
  DEFAULT_TOP_POST_WINDOW,
  type PostView,
  type TopPostWindow,
} from '@techit/contract/enums';
import {
  COMMENT_PAGE,
  LIST_COMMENTS_PREVIEW,
  PAGINATION,
  REVISION_PAGE_SIZE,
  TOP_POSTS_COUNT,
} from '@techit/contract/limits';
import type { AuthUser } from '../auth/auth-user';
import { seesRemoved } from '../admin/admin-policy';
import { BLOCKED, BlockRules } from '../blocks/block-rules';
import { BookmarksRepository } from '../bookmarks/bookmarks.repository';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../common/app-errors';
import {
  decodeCursor,
  decodeHotCursor,
  encodeHotCursor,
  type HotPageRequest,
  toPage,
  withLookahead,
} from '../common/cursor';
import { newObjectId, parseObjectId } from '../common/object-id';
import { toPageRequest } from '../common/page-request';
import { TransactionRunner } from '../database/transaction-runner';
import { DraftsService } from '../drafts/drafts.service';
import { RENDERER_VERSION } from '../markdown/markdown-renderer';
import { MarkdownService } from '../markdown/markdown.service';
import { NotificationsService } from '../notifications/notifications.service';
import { ImageReleaseService } from '../uploads/image-release.service';
import { UsersService } from '../users/users.service';
import { TagsRepository } from '../tags/tags.repository';
import { requireTagName } from '../tags/tags.service';
import type { CreatePostDto, EditPostDto } from './dto/post-input.dto';
import type { FeedQueryDto } from './dto/feed-query.dto';
import type { PageQueryDto } from '../common/dto/page-query.dto';
import type { CommentRow, Executor, NewComment, PostRow } from '../database/database.types';
import type { CommentsQueryDto, RevisionsQueryDto, UserPostsQueryDto } from './dto/post-view-query.dto';
import { hotScore } from './hot-score';
import { THREAD_READ } from './thread-read';
import { changedFields, type RevisedValues } from './post-changes';
import { asRemoved, commentFor, toPost, toRevision, toSinglePost, toTopPost } from './posts.mapper';
import {
  type CommentWithAuthor,
  type MuteFilter,
  type PostFilter,
  PostsRepository,
  type PostWithAuthor,
  type PostWithBody,
} from './posts.repository';

export interface CommentPage {
  comments: Comment[];
  nextCursor: string | null;
}

export interface PostPage {
  posts: Post[];
  nextCursor: string | null;
}

const POST_NOT_FOUND = "This post doesn't exist";
const COMMENT_NOT_FOUND = "This comment doesn't exist";

/** How far back GET /api/top-posts?window= looks. */
const WINDOW_MS: Record<TopPostWindow, number | null> = {
  day: 24 * 3600 * 1000,
  week: 7 * 24 * 3600 * 1000,
  month: 30 * 24 * 3600 * 1000,
  all: null,
};

@Injectable()
export class PostsService {
  constructor(
    private readonly posts: PostsRepository,
    private readonly users: UsersService,
    private readonly transactions: TransactionRunner,
    private readonly images: ImageReleaseService,
    private readonly drafts: DraftsService,
    private readonly markdown: MarkdownService,
    private readonly tags: TagsRepository,
    private readonly notifications: NotificationsService,
    // The two modules import each other (bookmarks present their posts through this service).
    @Inject(forwardRef(() => BookmarksRepository)) private readonly bookmarks: BookmarksRepository,
    private readonly blockRules: BlockRules,
  ) {}

  /** Every feed leaves out the posts of the reader's muted tags (docs/decisions/032-tags.md). */
  async feed(query: FeedQueryDto, viewer: AuthUser | null): Promise<PostPage> {
    const feed = query.feed ?? DEFAULT_FEED;
    if (feed === 'hot') return this.hotPage(query, viewer);
    let filter: PostFilter = { kind: 'all' };
    let mute: MuteFilter | undefined = viewer ? { userId: viewer.id } : undefined;
    if (feed === 'following') {
      if (viewer) filter = { kind: 'followed-by', userId: viewer.id };
      else if (query.userId !== undefined)
        filter = { kind: 'followed-by', userId: await this.users.requireExisting(query.userId) };
      else throw new BadRequestError('Log in (or pass userId) to see the following feed');
    }
    if (feed === 'tag') {
      if (query.tag === undefined) throw new BadRequestError('tag is required with feed=tag');
      const tag = requireTagName(query.tag);
      filter = { kind: 'tag', tag };
      // The page of a tag the reader muted still shows it: that is what opening it asks for.
      if (mute) mute = { ...mute, except: tag };
    }
    if (feed === 'tags') {
      // 400 like the following feed without a token: a token is optional on this route (a stale
      // one reads as a visitor), so a 401 would ask the client to sign in again for nothing.
      if (!viewer) throw new BadRequestError('Log in to see the posts of the tags you follow');
      filter = { kind: 'followed-tags', userId: viewer.id };
    }
    return this.page(filter, query, PAGINATION.feedPageSize, viewer, mute);
  }

  async userPosts(rawUserId: string, query: UserPostsQueryDto, viewer: AuthUser | null): Promise<PostPage> {
    const authorId = await this.users.requireExisting(rawUserId);
    return this.page({ kind: 'author', authorId }, query, PAGINATION.listPageSize, viewer);
  }

  async get(rawId: string, viewer: AuthUser | null, view: PostView = DEFAULT_POST_VIEW): Promise<Post> {
    return this.single(await this.requirePost(rawId), viewer, view);
  }

  /**
   * A conversation, oldest first. Asked bare (the spec's call) it is the whole conversation, as the
   * spec's client expects; with `limit` or `cursor` (our web app) one page plus the next page's cursor.
   */
  async comments(rawId: string, query: CommentsQueryDto, viewer: AuthUser | null = null): Promise<CommentPage> {
    const post = await this.requirePost(rawId);
    // A removed post's conversation goes with it, but for its author and the moderators.
    if (post.removed_at !== null && !seesRemoved(viewer, post.author_id)) throw new NotFoundError(POST_NOT_FOUND);
    const toComment = commentFor(viewer);
    // A signed-in reader's comments say which authors they mute (muted: true, decision 048).
    const readerId = viewer?.id;
    if (query.thread !== undefined) return this.thread(post.id, query, viewer);
    if (query.limit === undefined && query.cursor === undefined) {
      return { comments: (await this.posts.commentsOf(post.id, undefined, readerId)).map(toComment), nextCursor: null };
    }
    const limit = query.limit ?? COMMENT_PAGE.defaultSize;
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const { rows, nextCursor } = toPage(
      await this.posts.commentsPage(post.id, { limit: limit + 1, after }, readerId),
      limit,
    );
    return { comments: rows.map(toComment), nextCursor };
  }

  /**
   * A comment in its place (docs/decisions/038-comment-threads.md): its ancestors, root first, the
   * comment, then the replies below it, oldest first, a page at a time (the ancestors and the
   * comment come with the first page only).
   */
  private async thread(postId: string, query: CommentsQueryDto, viewer: AuthUser | null): Promise<CommentPage> {
    const readerId = viewer?.id;
    if (query.limit !== undefined) throw new BadRequestError('limit cannot be combined with thread');
    const commentId = parseObjectId(query.thread);
    if (!commentId) throw new BadRequestError('thread must be a comment id');
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const [chain, below] = await Promise.all([
      // Read for later pages too: it is what proves the comment is one of this post's.
      this.posts.commentWithAncestors(postId, commentId, readerId),
      this.posts.commentDescendants(
        commentId,
        { limit: THREAD_READ.pageSize + 1, maxDepth: THREAD_READ.depth, after },
        readerId,
      ),
    ]);
    if (chain.length === 0) throw new NotFoundError(COMMENT_NOT_FOUND);
    const { rows, nextCursor } = toPage(below, THREAD_READ.pageSize);
    return { comments: [...(after ? [] : chain), ...rows].map(commentFor(viewer)), nextCursor };
  }

  /** No window is the seed's (and the spec's) top posts: the 5 best of all time. */
  async top(window: TopPostWindow = DEFAULT_TOP_POST_WINDOW, viewer: AuthUser | null = null): Promise<TopPost[]> {
    const span = WINDOW_MS[window];
    const since = span === null ? undefined : new Date(Date.now() - span).toISOString();
    return (await this.posts.top(TOP_POSTS_COUNT, { since, mutedBy: viewer?.id })).map(toTopPost);
  }

  async create(me: AuthUser, input: CreatePostDto, view: PostView = DEFAULT_POST_VIEW): Promise<Post> {
    const body = input.body ?? '';
    // Rendered once, here (docs/decisions/028-stored-html.md): reading a post never renders.
    const [desc, bodyRendered] = await Promise.all([
      this.markdown.renderWithMentions(input.desc, 'comment'),
      this.renderBody(body),
    ]);
    const descHtml = desc.html;
    const bodyHtml = bodyRendered.html;
    const now = new Date();
    const id = newObjectId(now);
    const tags = input.tags ?? [];
    const mentionedIds = [...desc.mentionedIds, ...bodyRendered.mentionedIds];
    const notified = await this.transactions.run(async (trx) => {
      // Nobody who blocks the author may be mentioned (docs/decisions/048-blocks-and-mutes.md).
      await this.blockRules.refuseBlocked(me.id, { mentioned: mentionedIds }, trx);
      await this.posts.insert(
        {
          id,
          author_id: me.id,
          title: input.title,
          description: input.desc,
          desc_html: descHtml,
          body,
          body_html: bodyHtml,
          render_version: RENDERER_VERSION,
          photo: input.pic ?? '',
          category: input.category ?? '',
          link1: input.link1 ?? '',
          link2: input.link2 ?? '',
          likes_count: 0,
          comments_count: 0,
          commenters_count: 0,
          created_at: now.toISOString(),
          hot_score: hotScore({ likes_count: 0, commenters_count: 0, created_at: now.toISOString() }),
          updated_at: now.toISOString(),
        },
        trx,
      );
      // The post and its tags' counters in one transaction (docs/decisions/032-tags.md).
      await this.tags.setPostTags({ id, createdAt: now.toISOString() }, [], tags, trx);
      // Whom desc and body mention (docs/decisions/039-notifications.md).
      return this.notifications.mentionedInPost(trx, {
        postId: id,
        actorId: me.id,
        mentionedIds,
        at: now.toISOString(),
      });
    });
    await this.notifications.signal(notified);
    // Right after the post is stored (no transaction to join): a failed create keeps it.
    await this.drafts.discardPublished(me, input.draftId);
    return this.get(id, me, view);
  }

  /**
   * Only the author edits: an admin may remove a post but not put words in someone's mouth. An edit
   * that changes something writes the post and its revision in one transaction (docs/decisions/
   * 027-post-revisions.md); one that changes nothing writes nothing (no revision, editedAt and
   * updatedAt stay).
   */
  async edit(me: AuthUser, rawId: string, input: EditPostDto, view: PostView = DEFAULT_POST_VIEW): Promise<Post> {
    const post = await this.requirePost(rawId);
    if (post.author_id !== me.id) throw new ForbiddenError('Only the author can edit this post');
    // Rendering waits for no lock: the texts are rendered first, from the post as read above, and
    // the transaction checks it has the HTML of every text it writes. An edit that landed between
    // the two (rare) changed what needs rendering: render again from the post as it now is.
    let seen: PostRendered = post;
    let rendered = await this.renderEdited(seen, input);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.transactions.run(async (trx) => {
        // Read again under the lock: a concurrent edit may have landed since requirePost.
        const current = await this.posts.lockForEdit(post.id, trx);
        if (!current) throw new NotFoundError(POST_NOT_FOUND);
        const tagsBefore = (await this.tags.tagsOfPosts([post.id], trx)).get(post.id) ?? [];
        // Not sent: the tags stay; [] removes them.
        const tagsAfter = input.tags ?? tagsBefore;
        const after: RevisedValues = {
          title: input.title,
          desc: input.desc,
          // Not sent: the body stays as it is (the original client knows no body).
          body: input.body ?? current.body,
          // Blank or missing: the post has no category (as on create).
          category: input.category ?? '',
          link1: input.link1 ?? '',
          link2: input.link2 ?? '',
          // A blank picture keeps the current one: the original client resends the form as it was.
          photo: input.pic || current.photo,
          tags: tagsAfter.join(','),
        };
        const changes = changedFields(revisedValuesOf(current, tagsBefore), after);
        if (!changes) return { replacedPhoto: null, notified: [] };
        const html = storedHtmlFor(current, after, rendered);
        if (!html) return 'render-again' as const;
        // The changed texts may not mention anyone who blocks the author (decision 048).
        await this.blockRules.refuseBlocked(me.id, { mentioned: rendered.mentioned }, trx);
        const at = new Date();
        const now = at.toISOString();
        await this.posts.update(
          post.id,
          {
            title: after.title,
            description: after.desc,
            body: after.body,
            ...html,
            render_version: RENDERER_VERSION,
            category: after.category,
            link1: after.link1,
            link2: after.link2,
            photo: after.photo,
            updated_at: now,
            edited_at: now,
          },
          trx,
        );
        if (changes.tags)
          await this.tags.setPostTags({ id: post.id, createdAt: current.created_at }, tagsBefore, tagsAfter, trx);
        await this.posts.insertRevision(
          {
            id: newObjectId(at),
            post_id: post.id,
            editor_id: me.id,
            changes: JSON.stringify(changes),
            created_at: now,
          },
          trx,
        );
        // Only whom the edit newly mentions (docs/decisions/039-notifications.md).
        const notified = await this.notifications.postEdited(trx, {
          postId: post.id,
          actorId: me.id,
          mentionedIds: [...new Set(rendered.mentioned)],
          at: now,
        });
        return { replacedPhoto: changes.photo?.from ?? null, notified };
      });
      if (outcome !== 'render-again') {
        // After the commit: a rolled-back edit still shows the old picture.
        if (outcome.replacedPhoto !== null) await this.images.release(outcome.replacedPhoto);
        await this.notifications.signal(outcome.notified);
        break;
      }
      seen = (await this.posts.findById(post.id)) ?? seen;
      // Edits racing on one post again and again: render every text, whatever the row says.
      rendered = await this.renderEdited(attempt >= 2 ? { ...seen, render_version: -1 } : seen, input);
    }
    await this.drafts.discardPublished(me, input.draftId);
    return this.get(post.id, me, view);
  }

  /**
   * The texts an edit of this post renders: those it changes, or all of them when the post was
   * rendered by an older renderer (its one render_version then covers both again).
   */
  private async renderEdited(post: PostRendered, input: EditPostDto): Promise<Rendered> {
    const stale = post.render_version !== RENDERER_VERSION;
    const body = input.body ?? post.body;
    const descChanged = input.desc !== post.description;
    const bodyChanged = body !== post.body;
    const [desc, bodyHtml] = await Promise.all([
      stale || descChanged ? this.markdown.renderWithMentions(input.desc, 'comment') : undefined,
      stale || bodyChanged ? this.renderBody(body) : undefined,
    ]);
    return {
      desc: desc === undefined ? undefined : { source: input.desc, html: desc.html },
      body: bodyHtml === undefined ? undefined : { source: body, html: bodyHtml.html },
      // Whom the changed texts mention; who was already told is the notifications' to know.
      mentioned: [
        ...(descChanged ? (desc?.mentionedIds ?? []) : []),
        ...(bodyChanged ? (bodyHtml?.mentionedIds ?? []) : []),
      ],
    };
  }

  private async renderBody(body: string): Promise<{ html: string; mentionedIds: string[] }> {
    return body === '' ? { html: '', mentionedIds: [] } : this.markdown.renderWithMentions(body, 'post');
  }

  /** Newest first; the author and admins only (a revision may hold words the author took back). */
  async revisions(me: AuthUser, rawId: string, query: RevisionsQueryDto): Promise<PostRevisionsReply> {
    const post = await this.requirePost(rawId);
    if (post.author_id !== me.id && me.role !== 'admin')
      throw new ForbiddenError("Only the author or an admin can see this post's history");
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const { rows, nextCursor } = toPage(
      await this.posts.revisionsPage(post.id, { limit: REVISION_PAGE_SIZE + 1, after }),
      REVISION_PAGE_SIZE,
    );
    return { revisions: rows.map(toRevision), nextCursor };
  }

  /**
   * Its tags count one post fewer and the post goes, in one transaction; the likes, comments and
   * post_tags cascade with the DELETE.
   */
  async delete(me: AuthUser, rawId: string, view: PostView = DEFAULT_POST_VIEW): Promise<Post> {
    const row = await this.requirePost(rawId);
    if (row.author_id !== me.id && me.role !== 'admin')
      throw new ForbiddenError('Only the author or an admin can delete this post');
    const deleted = await this.single(row, me, view);
    await this.transactions.run(async (trx) => {
      await this.tags.releasePostTags(row.id, trx);
      await this.posts.delete(row.id, trx);
    });
    await this.images.release(row.photo);
    return deleted;
  }

  /**
   * The hottest write, so it is two statements in one transaction and nothing else: counting
   * first locks the post and proves it exists (a 404 instead of a foreign-key error), then the
   * like row; a repeated like takes the count back. The full view then reads the likers in the
   * same transaction, under the post's lock, so the list and the count agree.
   */
  async like(me: AuthUser, rawPostId: string, view: PostView = DEFAULT_POST_VIEW): Promise<LikeReply> {
    const postId = parseObjectId(rawPostId);
    if (!postId) throw new NotFoundError(POST_NOT_FOUND);
    const at = new Date().toISOString();
    const { reply, notified } = await this.transactions.run(async (trx) => {
      // Also the block rule (decision 048): no row when the post's author blocks the liker.
      const counted = await this.posts.countLikeUnlessBlocked(postId, me.id, trx);
      if (counted === undefined) {
        if (await this.posts.findById(postId, trx)) throw new ForbiddenError(BLOCKED.like);
        throw new NotFoundError(POST_NOT_FOUND);
      }
      // A post the moderators removed takes no likes (decision 047): read by the same statement,
      // and the throw rolls the count back.
      if (counted.removed_at !== null) throw new NotFoundError(POST_NOT_FOUND);
      let likesCount = counted.likes_count;
      let notified: string[] = [];
      if (await this.posts.addLike(postId, me.id, at, trx)) {
        await this.posts.setHotScore(postId, hotScore(counted), trx);
        // The author's like group, in the like's transaction (docs/decisions/039-notifications.md).
        notified = await this.notifications.liked(trx, { postId, postAuthorId: counted.author_id, actorId: me.id, at });
      } else {
        likesCount = (await this.posts.adjustLikes(postId, -1, trx))?.likes_count ?? likesCount - 1;
      }
      const likes = view === 'compact' ? [me.id] : await this.likersIn(postId, trx);
      return { reply: { _id: postId, likes, likesCount }, notified };
    });
    await this.notifications.signal(notified);
    return reply;
  }

  /**
   * Same lock order as like (the post row, then the like row): a like and an unlike racing for
   * one post queue up instead of deadlocking. Taking back a like that was not there restores the
   * count.
   */
  async unlike(me: AuthUser, rawPostId: string, view: PostView = DEFAULT_POST_VIEW): Promise<LikeReply> {
    const postId = parseObjectId(rawPostId);
    if (!postId) throw new NotFoundError(POST_NOT_FOUND);
    const { reply, notified } = await this.transactions.run(async (trx) => {
      const counted = await this.posts.adjustLikes(postId, -1, trx);
      if (counted === undefined) throw new NotFoundError(POST_NOT_FOUND);
      let likesCount = counted.likes_count;
      let notified: string[] = [];
      if (await this.posts.removeLike(postId, me.id, trx)) {
        await this.posts.setHotScore(postId, hotScore(counted), trx);
        // Withdrawn from the author's like group while it is unread.
        notified = await this.notifications.unliked(trx, { postId, postAuthorId: counted.author_id, actorId: me.id });
      } else {
        likesCount = (await this.posts.adjustLikes(postId, 1, trx))?.likes_count ?? likesCount + 1;
      }
      const likes = view === 'compact' ? [] : await this.likersIn(postId, trx);
      return { reply: { _id: postId, likes, likesCount }, notified };
    });
    await this.notifications.signal(notified);
    return reply;
  }

  /**
   * A new comment, or with `parentId` a reply to a live comment of the same post. The one place a
   * comment is created: what else a new comment causes belongs in its transaction, beside the insert.
   */
  async comment(
    me: AuthUser,
    rawPostId: string,
    input: { text: string; parentId?: string | null },
    view: PostView = DEFAULT_POST_VIEW,
  ): Promise<Post> {
    const post = await this.requirePost(rawPostId);
    if (post.removed_at !== null) {
      throw new ConflictError('This post was removed by the moderators; it takes no new comments');
    }
    // The DTO checked its form; null and missing both mean a comment at the top.
    const parentId = input.parentId ? parseObjectId(input.parentId) : null;
    // Before the transaction: rendering holds no lock.
    const { html: textHtml, mentionedIds } = await this.markdown.renderWithMentions(input.text, 'comment');
    const now = new Date();
    const notified = await this.transactions.run(async (trx) => {
      // Also the existence check: the post may have been deleted since requirePost.
      if ((await this.posts.adjustComments(post.id, 1, trx)) === undefined) throw new NotFoundError(POST_NOT_FOUND);
      // Under the post's lock, which every comment delete takes first: the parent cannot become a
      // placeholder or go between this check and the insert.
      const parent = parentId === null ? null : await this.requireLiveComment(post.id, parentId, 'reply', trx);
      // Nobody blocked by whom the comment answers or mentions may write it (decision 048).
      await this.blockRules.refuseBlocked(
        me.id,
        {
          owners: [
            ...(parent ? [{ userId: parent.author_id, refusal: BLOCKED.reply }] : []),
            { userId: post.author_id, refusal: BLOCKED.comment },
          ],
          mentioned: mentionedIds,
        },
        trx,
      );
      const comment: NewComment = {
        id: newObjectId(now),
        post_id: post.id,
        author_id: me.id,
        text: input.text,
        text_html: textHtml,
        render_version: RENDERER_VERSION,
        created_at: now.toISOString(),
        parent_id: parent?.id ?? null,
      };
      await this.posts.insertComment(comment, trx);
      await this.rescore(post.id, trx);
      // reply (to the parent's author) > comment (to the post's author) > mention, once per person.
      return this.notifications.commented(trx, {
        postId: post.id,
        postAuthorId: post.author_id,
        commentId: comment.id,
        parentId: comment.parent_id ?? null,
        actorId: me.id,
        mentionedIds,
        at: comment.created_at,
      });
    });
    await this.notifications.signal(notified);
    return this.get(post.id, me, view);
  }

  /**
   * Its author rewrites a live comment under the rules of a new one; the text is rendered again
   * (mentions resolved as they are now) and the comment marked edited. The same text writes
   * nothing. The one place a comment is edited.
   */
  async editComment(
    me: AuthUser,
    rawPostId: string,
    rawCommentId: string,
    text: string,
    view: PostView = DEFAULT_POST_VIEW,
  ): Promise<Post> {
    const post = await this.requirePost(rawPostId);
    const commentId = parseObjectId(rawCommentId);
    if (!commentId) throw new NotFoundError(COMMENT_NOT_FOUND);
    const before = await this.requireLiveComment(post.id, commentId, 'edit');
    // Admins delete comments; they do not put words in someone else's mouth.
    if (before.author_id !== me.id) throw new ForbiddenError("Only the comment's author can edit it");
    if (text !== before.text) {
      const { html: textHtml, mentionedIds } = await this.markdown.renderWithMentions(text, 'comment');
      const notified = await this.transactions.run(async (trx) => {
        // The new text may not mention anyone who blocks its author (decision 048).
        await this.blockRules.refuseBlocked(me.id, { mentioned: mentionedIds }, trx);
        const patch = {
          text,
          text_html: textHtml,
          render_version: RENDERER_VERSION,
          edited_at: new Date().toISOString(),
        };
        // Deleted since it was read: nothing to edit any more.
        if (!(await this.posts.updateCommentText(before.id, patch, trx))) throw new NotFoundError(COMMENT_NOT_FOUND);
        // Only whom the new text newly mentions (docs/decisions/039-notifications.md).
        return this.notifications.commentEdited(trx, {
          postId: post.id,
          commentId: before.id,
          actorId: me.id,
          mentionedIds,
          at: patch.edited_at,
        });
      });
      await this.notifications.signal(notified);
    }
    return this.get(post.id, me, view);
  }

  /**
   * A comment nobody answered goes, and so does each "[deleted]" placeholder above it left with no
   * reply; a comment with replies becomes such a placeholder, so its replies stay readable. The
   * comments counter counts live comments, so it drops by one either way. The one place a
   * comment is deleted.
   */
  async deleteComment(
    me: AuthUser,
    rawPostId: string,
    rawCommentId: string,
    view: PostView = DEFAULT_POST_VIEW,
  ): Promise<Post> {
    const post = await this.requirePost(rawPostId);
    const commentId = parseObjectId(rawCommentId);
    if (!commentId) throw new NotFoundError(COMMENT_NOT_FOUND);
    const notified = await this.transactions.run(async (trx) => {
      // The post's lock first, as a new comment takes it: no reply can arrive between deciding
      // "no replies" and the removal, and two deletes of one comment queue up (the second finds a
      // placeholder or nothing, and its 404 rolls this back).
      if ((await this.posts.adjustComments(post.id, -1, trx)) === undefined) throw new NotFoundError(POST_NOT_FOUND);
      const comment = await this.requireLiveComment(post.id, commentId, 'delete', trx);
      const allowed = comment.author_id === me.id || post.author_id === me.id || me.role === 'admin';
      if (!allowed)
        throw new ForbiddenError("Only the comment's author, the post's author or an admin can delete this comment");
      // Its unread notifications go with it, placeholder or not (read ones stay, pointing at the post).
      const withdrawn = await this.notifications.commentsRemoved(trx, [comment.id]);
      await this.removeComment(comment, trx);
      await this.rescore(post.id, trx);
      return withdrawn;
    });
    await this.notifications.signal(notified);
    return this.get(post.id, me, view);
  }

  /**
   * Deletes a live comment (decision 038): gone when nothing answers it, else the "[deleted]"
   * placeholder; placeholders it leaves without replies go too. Whether it stays as a placeholder,
   * and which placeholders went. Also how deleting an account deletes its comments (AccountService).
   */
  async removeComment(
    comment: Pick<CommentRow, 'id' | 'parent_id'>,
    trx: Executor,
  ): Promise<{ placeholder: boolean; removedPlaceholders: string[] }> {
    if (!(await this.posts.deleteCommentWithoutReplies(comment.id, trx))) {
      await this.posts.markCommentDeleted(comment.id, trx);
      return { placeholder: true, removedPlaceholders: [] };
    }
    const removedPlaceholders: string[] = [];
    let above = comment.parent_id;
    while (above !== null) {
      const next = await this.posts.deleteChildlessPlaceholder(above, trx);
      if (next === undefined) break;
      removedPlaceholders.push(above);
      above = next;
    }
    return { placeholder: false, removedPlaceholders };
  }

  /**
   * A live comment of the post, or the error its use gets: 404 when the post has no such comment
   * (or, to edit or delete, only its placeholder), 409 when a reply answers a placeholder.
   */
  private async requireLiveComment(
    postId: string,
    commentId: string,
    use: 'reply' | 'edit' | 'delete',
    ex?: Executor,
  ): Promise<CommentRow> {
    const comment = await this.posts.findComment(postId, commentId, ex);
    if (!comment) throw new NotFoundError(COMMENT_NOT_FOUND);
    if (comment.deleted) {
      if (use === 'reply') throw new ConflictError('This comment was deleted; reply to another one');
      throw new NotFoundError(COMMENT_NOT_FOUND);
    }
    return comment;
  }

  /** Recounts the post's commenters and stores its hot score from the counters as they now are. */
  private async rescore(postId: string, trx: Executor): Promise<void> {
    const counters = await this.posts.recountCommenters(postId, trx);
    if (counters) await this.posts.setHotScore(postId, hotScore(counters), trx);
  }

  /**
   * The hot feed (docs/decisions/033-hot-feed.md): by stored score, paged by number or by a cursor
   * holding (score, id) of the last post shown, so a deep page costs what the first does.
   */
  private async hotPage(query: FeedQueryDto, viewer: AuthUser | null): Promise<PostPage> {
    const limit = query.limit ?? PAGINATION.feedPageSize;
    const request: HotPageRequest = query.cursor
      ? { limit: limit + 1, after: decodeHotCursor(query.cursor) }
      : { limit: limit + 1, offset: ((query.page ?? 1) - 1) * limit };
    // Like every feed, without the posts of the reader's muted tags (docs/decisions/032-tags.md).
    const rows = await this.posts.hot(request, viewer?.id);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    const nextCursor = rows.length > limit && last ? encodeHotCursor({ score: last.hot_score, id: last.id }) : null;
    return this.present(shown, nextCursor, query.view, viewer);
  }

  /**
   * A page of posts in a fixed number of statements whatever its size: the page, then (full) all
   * their likers and all their comments, or (compact) the viewer's likes among them and the newest
   * few comments of each.
   */
  private async page(
    filter: PostFilter,
    query: PageQueryDto & { view?: PostView },
    defaultLimit: number,
    viewer: AuthUser | null,
    mute?: MuteFilter,
  ): Promise<PostPage> {
    const request = toPageRequest(query, defaultLimit);
    const { rows, nextCursor } = toPage(await this.posts.list(filter, withLookahead(request), mute), request.limit);
    return this.present(rows, nextCursor, query.view, viewer);
  }

  /**
   * Posts another feature picked (the reader's bookmarks, decision 043), in the order of `ids`,
   * compact as the feeds carry them: one read of the posts, then what any page reads. `known`:
   * what the caller already knows of them (all bookmarked), so it is not looked up again.
   */
  async compactPosts(ids: string[], viewer: AuthUser, known: { bookmarked?: true } = {}): Promise<Post[]> {
    const byId = new Map((await this.posts.byIdList(ids)).map((row) => [row.id, row]));
    const rows = ids.flatMap((id) => byId.get(id) ?? []);
    return (await this.present(rows, null, 'compact', viewer, known.bookmarked ? new Set(ids) : undefined)).posts;
  }

  /**
   * The page's posts as replies carry them, each with its tags (one read for the page), for every
   * feed; for a signed-in reader also which of them they saved (one read; `bookmarked` when the
   * caller knows), none for a visitor.
   */
  private async present(
    rows: PostWithAuthor[],
    nextCursor: string | null,
    view: PostView | undefined,
    viewer: AuthUser | null,
    bookmarked?: Set<string>,
  ): Promise<PostPage> {
    const ids = rows.map((row) => row.id);
    const [tagsByPost, saved] = await Promise.all([
      this.tags.tagsOfPosts(ids),
      bookmarked ? Promise.resolve(bookmarked) : this.bookmarkedBy(ids, viewer),
    ]);
    const tagsOf = (id: string) => tagsByPost.get(id) ?? [];
    if ((view ?? DEFAULT_POST_VIEW) === 'full') {
      const [likers, comments] = await Promise.all([
        this.posts.likersOf(ids),
        this.posts.commentsOfPosts(ids, viewer?.id),
      ]);
      const likesByPost = groupBy(likers, (like) => like.post_id);
      const commentsByPost = groupBy(comments, (comment) => comment.post_id);
      const posts = rows.map((row) =>
        toPost(
          row,
          (likesByPost.get(row.id) ?? []).map((like) => like.user_id),
          (commentsByPost.get(row.id) ?? []).map(commentFor(viewer)),
          tagsOf(row.id),
          saved.has(row.id),
        ),
      );
      return { posts, nextCursor };
    }
    const [liked, comments] = await Promise.all([
      this.likedBy(ids, viewer),
      this.posts.latestCommentsOf(ids, LIST_COMMENTS_PREVIEW, viewer?.id),
    ]);
    const commentsByPost = groupBy(comments, (comment) => comment.post_id);
    return {
      posts: rows.map((row) =>
        toViewedPost(row, viewer, liked, commentsByPost.get(row.id) ?? [], tagsOf(row.id), saved.has(row.id)),
      ),
      nextCursor,
    };
  }

  /**
   * A post on its own: (full) all its likers and its whole conversation, or (compact) the viewer's
   * like and the first page of the conversation, with the cursor of the next.
   */
  private async single(row: PostWithBody, viewer: AuthUser | null, view: PostView): Promise<Post> {
    const post = await this.singleAsStored(row, viewer, view);
    return row.removed_at === null ? post : asRemoved(post, row.author_id, viewer);
  }

  private async singleAsStored(row: PostWithBody, viewer: AuthUser | null, view: PostView): Promise<Post> {
    const toComment = commentFor(viewer);
    const [tagsByPost, saved] = await Promise.all([
      this.tags.tagsOfPosts([row.id]),
      this.bookmarkedBy([row.id], viewer),
    ]);
    const tags = tagsByPost.get(row.id) ?? [];
    const bookmarked = saved.has(row.id);
    if (view === 'full') {
      const [likers, comments] = await Promise.all([
        this.posts.likersOf([row.id]),
        this.posts.commentsOf(row.id, undefined, viewer?.id),
      ]);
      return toSinglePost(
        row,
        likers.map((like) => like.user_id),
        comments.map(toComment),
        tags,
        bookmarked,
      );
    }
    const limit = COMMENT_PAGE.defaultSize;
    const [liked, firstPage] = await Promise.all([
      this.likedBy([row.id], viewer),
      this.posts.commentsPage(row.id, { limit: limit + 1 }, viewer?.id),
    ]);
    const { rows: comments, nextCursor } = toPage(firstPage, limit);
    const likes = viewer && liked.has(row.id) ? [viewer.id] : [];
    return { ...toSinglePost(row, likes, comments.map(toComment), tags, bookmarked), commentsNextCursor: nextCursor };
  }

  private async likersIn(postId: string, trx: Executor): Promise<string[]> {
    return (await this.posts.likersOf([postId], trx)).map((like) => like.user_id);
  }

  private likedBy(postIds: string[], viewer: AuthUser | null): Promise<Set<string>> {
    return viewer ? this.posts.likedBy(postIds, viewer.id) : Promise.resolve(new Set());
  }

  /** Which of these posts the reader saved: one indexed read, none for a visitor (decision 043). */
  private bookmarkedBy(postIds: string[], viewer: AuthUser | null): Promise<Set<string>> {
    return viewer ? this.bookmarks.bookmarkedBy(postIds, viewer.id) : Promise.resolve(new Set());
  }

  private async requirePost(rawId: string): Promise<PostWithBody> {
    const id = parseObjectId(rawId);
    const row = id ? await this.posts.findById(id) : undefined;
    if (!row) throw new NotFoundError(POST_NOT_FOUND);
    return row;
  }
}

/** The compact view: only the viewer's own like is listed (see Post.likes in the contract). */
function toViewedPost(
  row: PostWithAuthor,
  viewer: AuthUser | null,
  liked: Set<string>,
  comments: CommentWithAuthor[],
  tags: string[],
  bookmarked: boolean,
): Post {
  return toPost(
    row,
    viewer && liked.has(row.id) ? [viewer.id] : [],
    comments.map(commentFor(viewer)),
    tags,
    bookmarked,
  );
}

function revisedValuesOf(row: PostRow, tags: string[]): RevisedValues {
  return {
    title: row.title,
    desc: row.description,
    body: row.body,
    category: row.category,
    link1: row.link1,
    link2: row.link2,
    photo: row.photo,
    tags: tags.join(','),
  };
}

/** What an edit needs to know of a post to decide what to render. */
type PostRendered = Pick<PostRow, 'description' | 'body' | 'render_version'>;

/** The HTML an edit rendered before its transaction, each with the source it rendered. */
interface Rendered {
  desc?: { source: string; html: string };
  body?: { source: string; html: string };
  /** Whom the texts the edit changes mention. */
  mentioned: string[];
}

/**
 * The HTML columns an edit writes: the rendered ones (a text the edit changes, or every text of a
 * post rendered by an older renderer); the others keep theirs. Null when a text needing HTML was
 * not rendered from the source now written (a concurrent edit changed the post meanwhile).
 */
function storedHtmlFor(
  current: PostRow,
  after: RevisedValues,
  rendered: Rendered,
): { desc_html?: string; body_html?: string } | null {
  const stale = current.render_version !== RENDERER_VERSION;
  const html: { desc_html?: string; body_html?: string } = {};
  if (stale || after.desc !== current.description) {
    if (rendered.desc?.source !== after.desc) return null;
    html.desc_html = rendered.desc.html;
  }
  if (stale || after.body !== current.body) {
    if (rendered.body?.source !== after.body) return null;
    html.body_html = rendered.body.html;
  }
  return html;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
