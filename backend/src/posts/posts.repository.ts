import { Inject, Injectable } from '@nestjs/common';
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { HotPageRequest, Keyset, PageRequest } from '../common/cursor';
import { DATABASE } from '../database/database.tokens';
import { keysetPage, newestFirst, oldestFirstPage } from '../database/keyset-page';
import { PreparedQuery } from '../database/prepared-query';
import { notRemoved } from '../moderation/removal-filters';
import { titleKey } from '../search/search-query.parser';
import { mutedFlag, notBlockingActor } from '../blocks/relation-filters';
import { notMutedBy } from '../tags/tag-filters';
import type { HotInputs } from './hot-score';
import type {
  CommentRow,
  Database,
  Db,
  Executor,
  NewComment,
  NewPost,
  PostRevisionRow,
  PostRow,
  PostUpdate,
} from '../database/database.types';

/** A post as lists read it: without its article (body, body_html), which only single-post replies carry. */
export type PostWithAuthor = Omit<PostRow, 'body' | 'body_html' | 'removed_by' | 'title_key'> & {
  author_user_name: string;
  author_pic: string;
};
/** A post as a single-post reply reads it. */
export type PostWithBody = PostWithAuthor & Pick<PostRow, 'body' | 'body_html'>;

/** Every column of posts but the article: a list of 20 posts need not read 20 × 40,000 characters. */
const LIST_COLUMNS = [
  'posts.id',
  'posts.author_id',
  'posts.title',
  'posts.description',
  'posts.desc_html',
  'posts.photo',
  'posts.category',
  'posts.link1',
  'posts.link2',
  'posts.likes_count',
  'posts.comments_count',
  'posts.commenters_count',
  'posts.hot_score',
  'posts.created_at',
  'posts.updated_at',
  'posts.edited_at',
  'posts.render_version',
  'posts.removed_at',
] as const;
/**
 * A comment as replies read it; `muted` (read for a signed-in reader only) is whether that reader
 * mutes its author (docs/decisions/048-blocks-and-mutes.md): 1/0 on SQLite, true/false on PostgreSQL.
 */
export type CommentWithAuthor = CommentRow & { author_user_name: string; author_pic: string; muted?: unknown };
export type RevisionWithEditor = PostRevisionRow & { editor_user_name: string; editor_pic: string };

/**
 * Which posts a list shows: everyone's, one author's, those of the people a user follows, those
 * carrying one tag, or those carrying any tag a user follows.
 */
export type PostFilter =
  | { kind: 'all' }
  | { kind: 'author'; authorId: string }
  | { kind: 'followed-by'; userId: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'followed-tags'; userId: string };

/**
 * Whose muted tags a list leaves out (docs/decisions/032-tags.md): the reader's, except `except`
 * (the tag page being read). Absent: nothing is left out (visitors, a user's own posts list).
 */
export interface MuteFilter {
  userId: string;
  except?: string;
}

/**
 * From this many followees on, the following feed walks the newest posts instead of gathering each
 * followee's (see followedBy). Where the two cost the same grows with the data; 100 is near it for
 * 10k users and 100k posts, and either form is still fast a few times either side of it.
 */
const FOLLOWING_SCAN_THRESHOLD = 100;

/** Up to this many followed tags, the tags feed merges one index walk per tag (see followedTagsPage). */
const FOLLOWED_TAGS_MERGE_MAX = 50;

/** The only place that reads or writes posts, likes and comments. */
@Injectable()
export class PostsRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  // The statements of every like, unlike and post page, built once (see PreparedQuery).
  private readonly prepared = {
    findById: new PreparedQuery((ex, p: { id: string }) =>
      this.postsWithAuthor(ex).select(['posts.body', 'posts.body_html']).where('posts.id', '=', p.id),
    ),
    likes: new PreparedQuery((ex, p: { id: string; delta: number }) =>
      ex
        .updateTable('posts')
        .set((eb) => ({ likes_count: eb('likes_count', '+', p.delta) }))
        .where('id', '=', p.id)
        .returning(['likes_count', 'commenters_count', 'created_at', 'author_id', 'removed_at']),
    ),
    comments: new PreparedQuery((ex, p: { id: string; delta: number }) =>
      ex
        .updateTable('posts')
        .set((eb) => ({ comments_count: eb('comments_count', '+', p.delta) }))
        .where('id', '=', p.id)
        .returning(['id', 'comments_count']),
    ),
    /**
     * A like's first step: as `likes` with +1, unless the post's author blocks the liker (then no
     * row: the caller tells "blocked" from "no such post"). The block guard rides on the statement
     * the like runs anyway, so the hottest write costs no extra statement for it.
     */
    likesUnlessBlocked: new PreparedQuery((ex, p: { id: string; actorId: string }) =>
      ex
        .updateTable('posts')
        .set((eb) => ({ likes_count: eb('likes_count', '+', 1) }))
        .where('id', '=', p.id)
        .where(notBlockingActor(sql.ref<string>('posts.author_id'), p.actorId))
        .returning(['likes_count', 'commenters_count', 'created_at', 'author_id', 'removed_at']),
    ),
    addLike: new PreparedQuery((ex, p: { postId: string; userId: string; createdAt: string }) =>
      ex
        .insertInto('likes')
        .values({ post_id: p.postId, user_id: p.userId, created_at: p.createdAt })
        .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing()),
    ),
    hotScore: new PreparedQuery((ex, p: { id: string; score: number }) =>
      ex.updateTable('posts').set({ hot_score: p.score }).where('id', '=', p.id),
    ),
    removeLike: new PreparedQuery((ex, p: { postId: string; userId: string }) =>
      ex.deleteFrom('likes').where('post_id', '=', p.postId).where('user_id', '=', p.userId),
    ),
    commentsOf: new PreparedQuery((ex, p: { postId: string }) =>
      this.commentsWithAuthor(ex)
        .where('comments.post_id', '=', p.postId)
        .orderBy('comments.created_at')
        .orderBy('comments.id'),
    ),
    commentsOfFor: new PreparedQuery((ex, p: { postId: string; readerId: string }) =>
      this.commentsWithAuthor(ex, p.readerId)
        .where('comments.post_id', '=', p.postId)
        .orderBy('comments.created_at')
        .orderBy('comments.id'),
    ),
  };

  findById(id: string, ex: Executor = this.db): Promise<PostWithBody | undefined> {
    return this.prepared.findById.first(ex, { id });
  }

  /**
   * Newest first by (created_at, id): the order is total, so keyset pages never overlap.
   *
   * The page's ids are picked first, from an index alone, and only those rows are read and joined
   * to their authors. Asked for everything at once, the planners sometimes started from the
   * authors and sorted all their posts (8 ms for a deep cursor page on 100k posts instead of
   * 0.2 ms), and an OFFSET built every skipped row before dropping it (23 ms for page 2,500).
   */
  async list(filter: PostFilter, page: PageRequest, mute?: MuteFilter): Promise<PostWithAuthor[]> {
    let ids = this.db.selectFrom('posts').select('posts.id').where(notRemoved());
    if (filter.kind === 'author') ids = ids.where('posts.author_id', '=', filter.authorId);
    if (filter.kind === 'followed-by') ids = await this.followedBy(ids, filter.userId);
    if (filter.kind === 'tag') return this.byIds(this.taggedPage(filter.tag, page, mute).select('post_tags.post_id'));
    if (filter.kind === 'followed-tags') {
      const followed = await this.db
        .selectFrom('tag_prefs')
        .select('tag')
        .where('user_id', '=', filter.userId)
        .where('kind', '=', 'follow')
        .orderBy('tag')
        .limit(FOLLOWED_TAGS_MERGE_MAX + 1)
        .execute();
      if (followed.length === 0) return [];
      if (followed.length <= FOLLOWED_TAGS_MERGE_MAX) {
        return this.byIds(
          this.followedTagsPage(
            followed.map((row) => row.tag),
            page,
            mute,
          ),
        );
      }
      ids = ids.where((eb) =>
        eb.exists(
          eb
            .selectFrom('post_tags')
            .innerJoin('tag_prefs', 'tag_prefs.tag', 'post_tags.tag')
            .select('post_tags.post_id')
            .whereRef('post_tags.post_id', '=', 'posts.id')
            .where('tag_prefs.user_id', '=', filter.userId)
            .where('tag_prefs.kind', '=', 'follow'),
        ),
      );
    }
    if (mute) ids = ids.where(notMutedBy(mute.userId, mute.except));
    return this.byIds(keysetPage(ids, 'posts', page));
  }

  /** These posts (with authors), in no particular order: for a list another feature picked (bookmarks). */
  byIdList(ids: string[]): Promise<PostWithAuthor[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.postsWithAuthor(this.db).where('posts.id', 'in', ids).execute();
  }

  /** The posts (with authors) whose ids a page query picked, newest first. */
  private byIds<DB, TB extends keyof DB>(
    ids: SelectQueryBuilder<DB, TB, { post_id: string } | { id: string }>,
  ): Promise<PostWithAuthor[]> {
    return newestFirst(this.postsWithAuthor(this.db).where('posts.id', 'in', ids), 'posts').execute();
  }

  /**
   * One tag's page, read from post_tags' (tag, created_at, post_id) index alone (post_tags holds
   * its post's created_at for this): the walk stops when the page is full, however many posts the
   * tag has. Through posts instead (posts.id IN the tag's ids), the planners gathered every post
   * of the tag and sorted them: 167 ms for a tag on a quarter of 100k posts, against 0.01 ms.
   * The keyset is the posts' (created_at, id), so cursors are the other feeds' cursors.
   */
  private taggedPage(tag: string, page: PageRequest, mute?: MuteFilter) {
    let rows = this.db.selectFrom('post_tags').where('post_tags.tag', '=', tag).where(notRemoved('post_tags.post_id'));
    if (mute) rows = rows.where(notMutedBy(mute.userId, mute.except, 'post_tags.post_id'));
    if ('keyset' in page) {
      const { createdAt, id } = page.keyset;
      rows = rows.where((eb) =>
        eb(eb.refTuple('post_tags.created_at', 'post_tags.post_id'), '<', eb.tuple(createdAt, id)),
      );
    }
    rows = rows.orderBy('post_tags.created_at', 'desc').orderBy('post_tags.post_id', 'desc').limit(page.limit);
    return 'offset' in page && page.offset > 0 ? rows.offset(page.offset) : rows;
  }

  /**
   * The page of the tags a reader follows, merged from each tag's own page (taggedPage): the
   * newest `limit` posts carrying any of the tags are among the newest `limit` of each one, so
   * one index walk per tag of at most offset + limit rows gives the page, duplicates (a post with
   * two followed tags) merged. Gathering every post of the tags and sorting them took 210 ms for
   * three popular tags on 100k posts. For a reader following more than FOLLOWED_TAGS_MERGE_MAX
   * tags, `list` walks the newest posts instead, keeping those with a followed tag: their posts
   * are dense in time, so the page fills soon, and the union would grow with every tag.
   */
  private followedTagsPage(tags: string[], page: PageRequest, mute?: MuteFilter) {
    const skipped = 'offset' in page ? page.offset : 0;
    const each: PageRequest = 'keyset' in page ? page : { limit: page.limit + skipped, offset: 0 };
    const arms = tags.map((tag, index) =>
      this.db
        .selectFrom(
          this.taggedPage(tag, each, mute).select(['post_tags.post_id', 'post_tags.created_at']).as(`tag_${index}`),
        )
        .select([`tag_${index}.post_id as post_id`, `tag_${index}.created_at as created_at`]),
    );
    const merged = arms.slice(1).reduce((union, arm) => union.unionAll(arm), arms[0]);
    let pageIds = this.db
      .selectFrom(merged.as('followed'))
      .select('followed.post_id')
      .groupBy(['followed.post_id', 'followed.created_at'])
      .orderBy('followed.created_at', 'desc')
      .orderBy('followed.post_id', 'desc')
      .limit(page.limit);
    if (skipped > 0) pageIds = pageIds.offset(skipped);
    return pageIds;
  }

  /**
   * The posts of the people a user follows, written the way that is fast for how many they
   * follow. Following few, the page is among their few posts: read each author's newest posts
   * (IN). Following many, matches are dense in time: walk the newest posts and keep those whose
   * author is followed (EXISTS), stopping as soon as the page is full. Each form is slow in the
   * other case (53 ms for EXISTS with 4 followees, 3.5 ms for IN with 1,000 on 100k posts), and
   * the planners cannot tell the cases apart, so the count decides.
   */
  private async followedBy<O>(
    ids: SelectQueryBuilder<Database, 'posts', O>,
    userId: string,
  ): Promise<SelectQueryBuilder<Database, 'posts', O>> {
    const { n } = await this.db
      .selectFrom('follows')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('follower_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= FOLLOWING_SCAN_THRESHOLD) {
      return ids.where((eb) =>
        eb.exists(
          eb
            .selectFrom('follows')
            .select('follows.followee_id')
            .where('follows.follower_id', '=', userId)
            .whereRef('follows.followee_id', '=', 'posts.author_id'),
        ),
      );
    }
    return ids.where('posts.author_id', 'in', (eb) =>
      eb.selectFrom('follows').select('follows.followee_id').where('follows.follower_id', '=', userId),
    );
  }

  /**
   * The hot feed (docs/decisions/033-hot-feed.md): by the stored score, highest first, ties by id,
   * which makes the order total, so a cursor page starts strictly after the last post shown. Like
   * `list`, the page's ids come from the (hot_score, id) index alone (posts_hot_idx), and a deep
   * page by cursor reads as few rows as the first. Without the posts of tags `mutedBy` mutes.
   */
  hot(page: HotPageRequest, mutedBy?: string): Promise<PostWithAuthor[]> {
    let ids = this.db.selectFrom('posts').select('posts.id').where(notRemoved());
    if (mutedBy !== undefined) ids = ids.where(notMutedBy(mutedBy));
    if ('after' in page) {
      const { score, id } = page.after;
      ids = ids.where((eb) => eb(eb.refTuple('posts.hot_score', 'posts.id'), '<', eb.tuple(score, id)));
    }
    ids = ids.orderBy('posts.hot_score', 'desc').orderBy('posts.id', 'desc').limit(page.limit);
    if ('offset' in page && page.offset > 0) ids = ids.offset(page.offset);
    return this.postsWithAuthor(this.db)
      .where('posts.id', 'in', ids)
      .orderBy('posts.hot_score', 'desc')
      .orderBy('posts.id', 'desc')
      .execute();
  }

  /**
   * Ranked by likes plus distinct commenters, ties newest first (matches posts_top_idx); only the
   * posts created at or after `since` when given, without the posts of tags `mutedBy` mutes.
   */
  top(limit: number, options: { since?: string; mutedBy?: string } = {}): Promise<PostWithAuthor[]> {
    const { since, mutedBy } = options;
    return this.postsWithAuthor(this.db)
      .where(notRemoved())
      .$if(since !== undefined, (query) => query.where('posts.created_at', '>=', since ?? ''))
      .$if(mutedBy !== undefined, (query) => query.where(notMutedBy(mutedBy ?? '')))
      .orderBy(sql`(posts.likes_count + posts.commenters_count)`, 'desc')
      .orderBy('posts.created_at', 'desc')
      .orderBy('posts.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Which of these posts the user likes: one index lookup per post, however many likes a post has. */
  async likedBy(postIds: string[], userId: string): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('likes')
      .select('post_id')
      .where('user_id', '=', userId)
      .where('post_id', 'in', postIds)
      .execute();
    return new Set(rows.map((row) => row.post_id));
  }

  /**
   * Everyone who likes these posts, in one statement: the likes' primary key (post_id, user_id)
   * serves it, so it reads exactly the rows it returns.
   */
  likersOf(postIds: string[], ex: Executor = this.db): Promise<{ post_id: string; user_id: string }[]> {
    if (postIds.length === 0) return Promise.resolve([]);
    return ex
      .selectFrom('likes')
      .select(['post_id', 'user_id'])
      .where('post_id', 'in', postIds)
      .orderBy('post_id')
      .orderBy('user_id')
      .execute();
  }

  /**
   * The whole conversations of these posts, oldest first, in one statement (comments_post_created_idx).
   * `readerId` (here and in every comment read): whose mutes flag the comments (`muted`).
   */
  async commentsOfPosts(postIds: string[], readerId?: string): Promise<CommentWithAuthor[]> {
    if (postIds.length === 0) return [];
    if (postIds.length === 1) return this.commentsOf(postIds[0], this.db, readerId);
    return this.commentsWithAuthor(this.db, readerId)
      .where('comments.post_id', 'in', postIds)
      .orderBy('comments.created_at')
      .orderBy('comments.id')
      .execute();
  }

  /** One page of a post's conversation, oldest first, after `after` (see oldestFirstPage). */
  commentsPage(
    postId: string,
    page: { limit: number; after?: Keyset },
    readerId?: string,
  ): Promise<CommentWithAuthor[]> {
    return oldestFirstPage(
      this.commentsWithAuthor(this.db, readerId).where('comments.post_id', '=', postId),
      'comments',
      page,
    ).execute();
  }

  /** A post's whole conversation, oldest first. */
  commentsOf(postId: string, ex: Executor = this.db, readerId?: string): Promise<CommentWithAuthor[]> {
    if (readerId !== undefined) return this.prepared.commentsOfFor.rows(ex, { postId, readerId });
    return this.prepared.commentsOf.rows(ex, { postId });
  }

  /**
   * The newest `perPost` comments of each post, oldest first, in one statement: a UNION ALL of one
   * index range read per post, so a thread of 10,000 comments costs what a thread of 3 does (a
   * window function would read every comment of every post on the page).
   */
  async latestCommentsOf(postIds: string[], perPost: number, readerId?: string): Promise<CommentWithAuthor[]> {
    if (postIds.length === 0) return [];
    const newest = (postId: string, index: number) =>
      this.db
        .selectFrom(
          this.commentsWithAuthor(this.db, readerId)
            .where('comments.post_id', '=', postId)
            .orderBy('comments.created_at', 'desc')
            .orderBy('comments.id', 'desc')
            .limit(perPost)
            .as(`newest_${index}`),
        )
        .selectAll();
    const [first, ...rest] = postIds.map(newest);
    // Sorted here rather than by an outer ORDER BY, which cost SQLite more than the reads.
    const rows = await rest.reduce((query, part) => query.unionAll(part), first).execute();
    return rows.sort((a, b) => compareText(a.created_at, b.created_at) || compareText(a.id, b.id));
  }

  /** The title's key for search's exact-title step is written here, with the title (never by the caller). */
  async insert(post: Omit<NewPost, 'title_key'>, ex: Executor = this.db): Promise<void> {
    await ex
      .insertInto('posts')
      .values({ ...post, title_key: titleKey(post.title) })
      .execute();
  }

  async update(id: string, patch: Omit<PostUpdate, 'title_key'>, ex: Executor = this.db): Promise<void> {
    const keyed = patch.title === undefined ? patch : { ...patch, title_key: titleKey(patch.title) };
    await ex.updateTable('posts').set(keyed).where('id', '=', id).execute();
  }

  /**
   * The post as it is now, or undefined when it is gone, read by a write that changes nothing: on
   * PostgreSQL the row stays locked until the transaction ends, and on SQLite the transaction
   * holds the write lock from here on, so two edits of one post queue up and each revision's
   * "from" is what the edit really replaced.
   */
  lockForEdit(id: string, ex: Executor): Promise<PostRow | undefined> {
    return ex
      .updateTable('posts')
      .set((eb) => ({ edited_at: eb.ref('edited_at') }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async insertRevision(revision: PostRevisionRow, ex: Executor): Promise<void> {
    await ex.insertInto('post_revisions').values(revision).execute();
  }

  /** A post's edits, newest first, after `after` (post_revisions_post_created_idx). */
  revisionsPage(postId: string, page: { limit: number; after?: Keyset }): Promise<RevisionWithEditor[]> {
    return keysetPage(
      this.db
        .selectFrom('post_revisions')
        .innerJoin('users', 'users.id', 'post_revisions.editor_id')
        .selectAll('post_revisions')
        .select(['users.user_name as editor_user_name', 'users.pic as editor_pic'])
        .where('post_revisions.post_id', '=', postId),
      'post_revisions',
      page.after ? { limit: page.limit, keyset: page.after } : { limit: page.limit, offset: 0 },
    ).execute();
  }

  /** Likes, comments and revisions go with the post (ON DELETE CASCADE). */
  async delete(id: string, ex: Executor = this.db): Promise<void> {
    await ex.deleteFrom('posts').where('id', '=', id).execute();
  }

  /** True when the like is new; liking twice inserts nothing. */
  async addLike(postId: string, userId: string, createdAt: string, ex: Executor): Promise<boolean> {
    const result = await this.prepared.addLike.execute(ex, { postId, userId, createdAt });
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async removeLike(postId: string, userId: string, ex: Executor): Promise<boolean> {
    const result = await this.prepared.removeLike.execute(ex, { postId, userId });
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /**
   * Moves a post's likes counter and answers its new value, or undefined when the post does not
   * exist (or was deleted since the caller looked). On PostgreSQL the update also locks the post's
   * row until the transaction ends, so a concurrent delete waits for this change and likes of one
   * post queue up instead of deadlocking.
   */
  adjustLikes(
    postId: string,
    delta: 1 | -1,
    ex: Executor,
  ): Promise<(HotInputs & { author_id: string; removed_at: string | null }) | undefined> {
    return this.prepared.likes.first(ex, { id: postId, delta });
  }

  /** adjustLikes(+1) for a like by `actorId`: undefined also when the post's author blocks them. */
  countLikeUnlessBlocked(
    postId: string,
    actorId: string,
    ex: Executor,
  ): Promise<(HotInputs & { author_id: string; removed_at: string | null }) | undefined> {
    return this.prepared.likesUnlessBlocked.first(ex, { id: postId, actorId });
  }

  /** Stores the hot score computed from the counters the same transaction just wrote. */
  async setHotScore(postId: string, score: number, ex: Executor): Promise<void> {
    await this.prepared.hotScore.execute(ex, { id: postId, score });
  }

  /**
   * Moves a post's comments counter and answers its new value, or undefined when the post no
   * longer exists. The row lock (PostgreSQL) makes concurrent comment changes on one post
   * queue up, letting the commenter recount that follows see them all.
   */
  async adjustComments(postId: string, delta: 1 | -1, ex: Executor): Promise<number | undefined> {
    return (await this.prepared.comments.first(ex, { id: postId, delta }))?.comments_count;
  }

  /** Answers the counters the hot score is computed from, as they now are (undefined: no such post). */
  recountCommenters(postId: string, ex: Executor): Promise<HotInputs | undefined> {
    return ex
      .updateTable('posts')
      .set({
        // Live comments only: a "[deleted]" placeholder has no author to count.
        commenters_count: sql<number>`(select count(distinct comments.author_id) from comments where comments.post_id = ${postId} and comments.deleted = 0)`,
      })
      .where('id', '=', postId)
      .returning(['likes_count', 'commenters_count', 'created_at'])
      .executeTakeFirst();
  }

  async insertComment(comment: NewComment, ex: Executor): Promise<void> {
    await ex.insertInto('comments').values(comment).execute();
  }

  findComment(postId: string, commentId: string, ex: Executor = this.db): Promise<CommentRow | undefined> {
    return ex
      .selectFrom('comments')
      .selectAll()
      .where('id', '=', commentId)
      .where('post_id', '=', postId)
      .executeTakeFirst();
  }

  /** Sets a live comment's text (and what goes with it); false when it is gone or a placeholder. */
  async updateCommentText(
    commentId: string,
    patch: Pick<CommentRow, 'text' | 'text_html' | 'render_version'> & { edited_at: string },
    ex: Executor,
  ): Promise<boolean> {
    const result = await ex
      .updateTable('comments')
      .set(patch)
      .where('id', '=', commentId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes the comment if nothing answers it; false (and nothing done) when it has replies. */
  async deleteCommentWithoutReplies(commentId: string, ex: Executor): Promise<boolean> {
    const result = await ex
      .deleteFrom('comments')
      .where('id', '=', commentId)
      .where((eb) => eb.not(eb.exists(repliesTo(eb, commentId))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Turns a comment into the "[deleted]" placeholder: no text left, the row kept for its replies. */
  async markCommentDeleted(commentId: string, ex: Executor): Promise<void> {
    await ex.updateTable('comments').set({ deleted: 1, text: '', text_html: '' }).where('id', '=', commentId).execute();
  }

  /**
   * Removes a placeholder that no longer has replies, answering its parent's id (null at the top),
   * or undefined when the comment is live, gone or still answered (nothing removed).
   */
  async deleteChildlessPlaceholder(commentId: string, ex: Executor): Promise<string | null | undefined> {
    const removed = await ex
      .deleteFrom('comments')
      .where('id', '=', commentId)
      .where('deleted', '=', 1)
      .where((eb) => eb.not(eb.exists(repliesTo(eb, commentId))))
      .returning('parent_id')
      .executeTakeFirst();
    return removed?.parent_id;
  }

  /**
   * The comment of this post and its ancestors, root first: one recursive walk up parent_id
   * (comments' primary key serves each step). Empty when the post has no such comment.
   */
  commentWithAncestors(postId: string, commentId: string, readerId?: string): Promise<CommentWithAuthor[]> {
    return this.db
      .withRecursive('chain(id, parent_id, up)', (db) =>
        db
          .selectFrom('comments')
          .select(['comments.id', 'comments.parent_id', sql<number>`0`.as('up')])
          .where('comments.id', '=', commentId)
          .where('comments.post_id', '=', postId)
          .unionAll(
            db
              .selectFrom('comments')
              .innerJoin('chain', 'chain.parent_id', 'comments.id')
              .select(['comments.id', 'comments.parent_id', sql<number>`chain.up + 1`.as('up')]),
          ),
      )
      .selectFrom('chain')
      .innerJoin('comments', 'comments.id', 'chain.id')
      .innerJoin('users', 'users.id', 'comments.author_id')
      .selectAll('comments')
      .select(['users.user_name as author_user_name', 'users.pic as author_pic'])
      .$if(readerId !== undefined, (query) => query.select(mutedOf(readerId ?? '')))
      .orderBy('chain.up', 'desc')
      .execute();
  }

  /**
   * The replies under a comment and theirs, down to `maxDepth` levels below it, oldest first by
   * (created_at, id) after `after`: one recursive walk down parent_id (comments_parent_idx).
   */
  commentDescendants(
    commentId: string,
    page: { limit: number; maxDepth: number; after?: Keyset },
    readerId?: string,
  ): Promise<CommentWithAuthor[]> {
    const query = this.db
      .withRecursive('subtree(id, depth)', (db) =>
        db
          .selectFrom('comments')
          .select(['comments.id', sql<number>`1`.as('depth')])
          .where('comments.parent_id', '=', commentId)
          .unionAll(
            db
              .selectFrom('comments')
              .innerJoin('subtree', 'subtree.id', 'comments.parent_id')
              .select(['comments.id', sql<number>`subtree.depth + 1`.as('depth')])
              .where('subtree.depth', '<', page.maxDepth),
          ),
      )
      .selectFrom('subtree')
      .innerJoin('comments', 'comments.id', 'subtree.id')
      .innerJoin('users', 'users.id', 'comments.author_id')
      .selectAll('comments')
      .select(['users.user_name as author_user_name', 'users.pic as author_pic'])
      .$if(readerId !== undefined, (query) => query.select(mutedOf(readerId ?? '')));
    return oldestFirstPage(query, 'comments', page).execute();
  }

  /** With `readerId`, each comment also says whether that reader mutes its author (`muted`). */
  private commentsWithAuthor(ex: Executor, readerId?: string) {
    return ex
      .selectFrom('comments')
      .innerJoin('users', 'users.id', 'comments.author_id')
      .selectAll('comments')
      .select(['users.user_name as author_user_name', 'users.pic as author_pic'])
      .$if(readerId !== undefined, (query) => query.select(mutedOf(readerId ?? '')));
  }

  private postsWithAuthor(ex: Executor): SelectQueryBuilder<Database, 'posts' | 'users', PostWithAuthor> {
    return ex
      .selectFrom('posts')
      .innerJoin('users', 'users.id', 'posts.author_id')
      .select(LIST_COLUMNS)
      .select(['users.user_name as author_user_name', 'users.pic as author_pic']);
  }
}

/** The `muted` column of a comment row: whether the reader mutes its author (relation-filters.ts). */
function mutedOf(readerId: string) {
  return mutedFlag(readerId, sql.ref<string>('comments.author_id')).as('muted');
}

/** The replies to a comment (comments_parent_idx), for "has it any?" checks. */
function repliesTo(eb: ExpressionBuilder<Database, 'comments'>, commentId: string) {
  return eb.selectFrom('comments as replies').select('replies.id').where('replies.parent_id', '=', commentId);
}

/** Byte order, as the databases compare these ASCII columns (not the locale's order). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
