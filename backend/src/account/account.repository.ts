import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DELETED_USER_ID } from '../common/deleted-user';
import { DATABASE } from '../database/database.tokens';
import type { Db, Executor, UserRow } from '../database/database.types';
import type { HotInputs } from '../posts/hot-score';
import { emailKey } from '../users/users.repository';

/** Rows an export reads at a time: a page is held in memory, never the whole history. */
export const EXPORT_BATCH = 200;
/** Ids per `IN (…)` list, well under SQLite's bound-parameter limit. */
const ID_CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += ID_CHUNK) out.push(items.slice(start, start + ID_CHUNK));
  return out;
}

/** The only Kysely user of the account settings: password, email, export and deletion. */
@Injectable()
export class AccountRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  findUser(id: string, ex: Executor = this.db): Promise<UserRow | undefined> {
    return ex.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The new hash and a raised token_version in one statement, only while the hash is still the one
   * just checked (two changes racing: the second finds another hash and changes nothing). Answers
   * the new token_version, or undefined when nothing changed.
   */
  async replacePassword(id: string, checkedHash: string, newHash: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('users')
      .set((eb) => ({
        password_hash: newHash,
        token_version: eb('token_version', '+', 1),
        updated_at: new Date().toISOString(),
      }))
      .where('id', '=', id)
      .where('password_hash', '=', checkedHash)
      .returning('token_version')
      .executeTakeFirst();
    return row?.token_version;
  }

  /** Whether another account already uses this email (compared as sign-up compares them). */
  async emailTakenByOther(id: string, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('email_key', '=', emailKey(email))
      .where('id', '<>', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async setEmail(id: string, email: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email, email_key: emailKey(email), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Claims today's export: records `now` unless an export started after `since`. One conditional
   * upsert, so two requests at once (or on two instances) cannot both win.
   */
  async claimExport(id: string, now: string, since: string): Promise<boolean> {
    const rows = await this.db
      .insertInto('account_exports')
      .values({ user_id: id, exported_at: now })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ exported_at: now }).where('account_exports.exported_at', '<=', since),
      )
      .returning('user_id')
      .execute();
    return rows.length > 0;
  }

  async lastExport(id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('account_exports')
      .select('exported_at')
      .where('user_id', '=', id)
      .executeTakeFirst();
    return row?.exported_at;
  }

  // ---- export: keyset pages by id, EXPORT_BATCH rows at a time ----

  postsPage(userId: string, afterId: string) {
    return this.db
      .selectFrom('posts')
      .select([
        'id',
        'title',
        'description',
        'body',
        'photo',
        'category',
        'link1',
        'link2',
        'likes_count',
        'comments_count',
        'created_at',
        'edited_at',
      ])
      .where('author_id', '=', userId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(EXPORT_BATCH)
      .execute();
  }

  async tagsOf(postIds: readonly string[]): Promise<Map<string, string[]>> {
    const tags = new Map<string, string[]>();
    if (postIds.length === 0) return tags;
    const rows = await this.db
      .selectFrom('post_tags')
      .select(['post_id', 'tag'])
      .where('post_id', 'in', [...postIds])
      .orderBy('post_id')
      .orderBy('position')
      .execute();
    for (const row of rows) tags.set(row.post_id, [...(tags.get(row.post_id) ?? []), row.tag]);
    return tags;
  }

  /** The user's live comments, with the post each answers. */
  commentsPage(userId: string, afterId: string) {
    return this.db
      .selectFrom('comments')
      .innerJoin('posts', 'posts.id', 'comments.post_id')
      .select([
        'comments.id',
        'comments.post_id',
        'posts.title as post_title',
        'comments.parent_id',
        'comments.text',
        'comments.created_at',
        'comments.edited_at',
      ])
      .where('comments.author_id', '=', userId)
      .where('comments.deleted', '=', 0)
      .where('comments.id', '>', afterId)
      .orderBy('comments.id')
      .limit(EXPORT_BATCH)
      .execute();
  }

  noticesPage(userId: string, afterId: string) {
    return this.db
      .selectFrom('notices')
      .select(['id', 'description', 'links', 'tags', 'created_at'])
      .where('author_id', '=', userId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(EXPORT_BATCH)
      .execute();
  }

  /** Posts the user liked or bookmarked, by post id, with what identifies them to a person. */
  markedPostsPage(table: 'likes' | 'bookmarks', userId: string, afterPostId: string) {
    return this.db
      .selectFrom(table)
      .innerJoin('posts', 'posts.id', `${table}.post_id`)
      .innerJoin('users', 'users.id', 'posts.author_id')
      .select([
        'posts.id as post_id',
        'posts.title',
        'users.id as author_id',
        'users.user_name as author_user_name',
        `${table}.created_at`,
      ])
      .where(`${table}.user_id`, '=', userId)
      .where(`${table}.post_id`, '>', afterPostId)
      .orderBy(`${table}.post_id`)
      .limit(EXPORT_BATCH)
      .execute();
  }

  /** Who the user follows (`following`) or who follows them (`followers`), by the other's id. */
  followsPage(direction: 'following' | 'followers', userId: string, afterId: string) {
    const [mine, theirs] =
      direction === 'following' ? (['follower_id', 'followee_id'] as const) : (['followee_id', 'follower_id'] as const);
    return this.db
      .selectFrom('follows')
      .innerJoin('users', 'users.id', `follows.${theirs}`)
      .select(['users.id', 'users.user_name', 'follows.created_at'])
      .where(`follows.${mine}`, '=', userId)
      .where(`follows.${theirs}`, '>', afterId)
      .orderBy(`follows.${theirs}`)
      .limit(EXPORT_BATCH)
      .execute();
  }

  draftsPage(userId: string, afterId: string) {
    return this.db
      .selectFrom('drafts')
      .select(['id', 'kind', 'post_id', 'fields', 'created_at', 'updated_at'])
      .where('user_id', '=', userId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(EXPORT_BATCH)
      .execute();
  }

  tagPrefs(userId: string) {
    return this.db
      .selectFrom('tag_prefs')
      .select(['tag', 'kind', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('tag')
      .execute();
  }

  // ---- deletion: every step in the caller's transaction ----

  /** The placeholder account (see common/deleted-user.ts), made the first time it is needed. */
  async ensureDeletedUser(ex: Executor): Promise<void> {
    const now = new Date().toISOString();
    await ex
      .insertInto('users')
      .values({
        id: DELETED_USER_ID,
        // Brackets and a space: no sign-up can take this name (USER_NAME_PATTERN).
        user_name: '[deleted user]',
        // Sign-up requires an email, so no account can collide with the empty one.
        email: '',
        email_key: '',
        // No usable hash: every sign-in as it fails (PasswordHasher.verify).
        password_hash: '',
        pic: '',
        position: '',
        bio: '',
        theme: 'light',
        role: 'user',
        created_at: now,
        updated_at: now,
        token_version: 0,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** Removes the user's likes; answers the posts that lost one. */
  async deleteLikes(userId: string, ex: Executor): Promise<string[]> {
    const rows = await ex.deleteFrom('likes').where('user_id', '=', userId).returning('post_id').execute();
    return rows.map((row) => row.post_id);
  }

  /**
   * Every notification the user caused goes: a like group loses them (and goes with its last
   * liker), any other kind (comment, reply, mention, follow) is theirs alone and goes whole.
   * Answers the recipients whose lists changed.
   */
  async withdrawNotificationsBy(userId: string, ex: Executor): Promise<string[]> {
    const ids = (
      await ex.selectFrom('notification_actors').select('notification_id').where('actor_id', '=', userId).execute()
    ).map((row) => row.notification_id);
    const recipients = new Set<string>();
    for (const part of chunks(ids)) {
      await ex
        .updateTable('notifications')
        .set((eb) => ({ actors_count: eb('actors_count', '-', 1) }))
        .where('id', 'in', part)
        .execute();
      await ex
        .deleteFrom('notification_actors')
        .where('actor_id', '=', userId)
        .where('notification_id', 'in', part)
        .execute();
      const gone = await ex
        .deleteFrom('notifications')
        .where('id', 'in', part)
        .where((eb) => eb.or([eb('kind', '<>', 'like'), eb('actors_count', '<=', 0)]))
        .returning('user_id')
        .execute();
      for (const row of gone) recipients.add(row.user_id);
    }
    return [...recipients];
  }

  /** The photos of the user's posts (to free once they are gone). */
  async postPhotos(userId: string, ex: Executor): Promise<string[]> {
    const rows = await ex
      .selectFrom('posts')
      .select('photo')
      .where('author_id', '=', userId)
      .where('photo', '<>', '')
      .execute();
    return rows.map((row) => row.photo);
  }

  /**
   * The user's posts go (their likes, comments, tags, bookmarks, notifications and search entries
   * cascade); first each tag counts as many posts fewer as it loses.
   */
  async deletePosts(userId: string, ex: Executor): Promise<void> {
    const lost = await ex
      .selectFrom('post_tags')
      .innerJoin('posts', 'posts.id', 'post_tags.post_id')
      .select((eb) => ['post_tags.tag', eb.fn.countAll<number>().as('n')])
      .where('posts.author_id', '=', userId)
      .groupBy('post_tags.tag')
      .execute();
    for (const { tag, n } of lost) {
      await ex
        .updateTable('tags')
        .set((eb) => ({ posts_count: eb('posts_count', '-', Number(n)) }))
        .where('name', '=', tag)
        .execute();
    }
    await ex.deleteFrom('posts').where('author_id', '=', userId).execute();
  }

  async deleteNotices(userId: string, ex: Executor): Promise<void> {
    await ex.deleteFrom('notices').where('author_id', '=', userId).execute();
  }

  /** The user's live comments, newest first: replies before what they answer. */
  liveComments(userId: string, ex: Executor) {
    return ex
      .selectFrom('comments')
      .select(['id', 'post_id', 'parent_id'])
      .where('author_id', '=', userId)
      .where('deleted', '=', 0)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Unread notifications about these comments go with them (decision 039). */
  async withdrawUnreadOfComments(commentIds: readonly string[], ex: Executor): Promise<string[]> {
    const recipients: string[] = [];
    for (const part of chunks(commentIds)) {
      const rows = await ex
        .deleteFrom('notifications')
        .where('comment_id', 'in', part)
        .where('read', '=', 0)
        .returning('user_id')
        .execute();
      recipients.push(...rows.map((row) => row.user_id));
    }
    return recipients;
  }

  /**
   * What stays of the user moves to the placeholder account: with `anonymise` their posts,
   * notices, comments and revisions; always the "[deleted]" placeholders, whose replies (anyone's)
   * would otherwise cascade away with the account row. Answers the posts whose comments moved.
   */
  async handOver(userId: string, everything: boolean, ex: Executor): Promise<string[]> {
    const moved = await ex
      .updateTable('comments')
      .set({ author_id: DELETED_USER_ID })
      .where('author_id', '=', userId)
      .$if(!everything, (qb) => qb.where('deleted', '=', 1))
      .returning('post_id')
      .execute();
    if (everything) {
      await ex.updateTable('posts').set({ author_id: DELETED_USER_ID }).where('author_id', '=', userId).execute();
      await ex.updateTable('notices').set({ author_id: DELETED_USER_ID }).where('author_id', '=', userId).execute();
      await ex
        .updateTable('post_revisions')
        .set({ editor_id: DELETED_USER_ID })
        .where('editor_id', '=', userId)
        .execute();
    }
    return [...new Set(moved.map((row) => row.post_id))];
  }

  /** The tags the user followed count one follower fewer (their prefs cascade with the account). */
  async releaseTagFollows(userId: string, ex: Executor): Promise<void> {
    await ex
      .updateTable('tags')
      .set((eb) => ({ followers_count: eb('followers_count', '-', 1) }))
      .where('name', 'in', (eb) =>
        eb.selectFrom('tag_prefs').select('tag').where('user_id', '=', userId).where('kind', '=', 'follow'),
      )
      .execute();
  }

  /**
   * The account row goes; follows, bookmarks, drafts, tag prefs, its own notifications and
   * settings cascade. Idempotency keys have no foreign key (decision 022): removed here.
   */
  async deleteUser(userId: string, ex: Executor): Promise<void> {
    await ex.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
    await ex.deleteFrom('users').where('id', '=', userId).execute();
  }

  /**
   * Sets each post's counters to what its rows say (likes, live comments, distinct live
   * commenters) and answers what the hot score is computed from. One UPDATE per chunk of posts.
   */
  async recount(postIds: readonly string[], ex: Executor): Promise<Array<HotInputs & { id: string }>> {
    const out: Array<HotInputs & { id: string }> = [];
    for (const part of chunks([...new Set(postIds)])) {
      const rows = await ex
        .updateTable('posts')
        .set({
          likes_count: sql<number>`(select count(*) from likes where likes.post_id = posts.id)`,
          comments_count: sql<number>`(select count(*) from comments where comments.post_id = posts.id and comments.deleted = 0)`,
          commenters_count: sql<number>`(select count(distinct comments.author_id) from comments where comments.post_id = posts.id and comments.deleted = 0)`,
        })
        .where('id', 'in', part)
        .returning(['id', 'likes_count', 'commenters_count', 'created_at'])
        .execute();
      out.push(
        ...rows.map((row) => ({
          ...row,
          likes_count: Number(row.likes_count),
          commenters_count: Number(row.commenters_count),
        })),
      );
    }
    return out;
  }

  async setHotScore(postId: string, score: number, ex: Executor): Promise<void> {
    await ex.updateTable('posts').set({ hot_score: score }).where('id', '=', postId).execute();
  }
}
