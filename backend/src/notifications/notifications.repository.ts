import { Inject, Injectable } from '@nestjs/common';
import type { NotificationKind } from '@techit/contract/enums';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Keyset } from '../common/cursor';
import { DATABASE } from '../database/database.tokens';
import type { Database, Db, Executor, NewNotification } from '../database/database.types';
import { keysetPage } from '../database/keyset-page';
import { authorNotMutedBy } from '../blocks/relation-filters';
import { PreparedQuery } from '../database/prepared-query';

/** A notification as lists and the stream carry it: the row and what it points at. */
export interface NotificationWithTarget {
  id: string;
  kind: NotificationKind;
  post_id: string | null;
  comment_id: string | null;
  notice_id: string | null;
  actors_count: number;
  read: number;
  created_at: string;
  post_title: string | null;
  comment_text: string | null;
  comment_deleted: number | null;
  notice_text: string | null;
}

/** One of the newest actors of a notification. */
export interface ActorRow {
  notification_id: string;
  id: string;
  user_name: string;
  pic: string;
}

/** The only place that reads or writes notifications, their actors, settings and stream tickets. */
@Injectable()
export class NotificationsRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  // The like and unlike path runs these on every like of someone else's post: built once, and as
  // few as the rules allow (docs/decisions/039-notifications.md, "Consequences"). `kind = 'like'`
  // is written as a literal so both databases match it to the partial like-group index (a bound
  // parameter cannot prove the index's predicate, nor name it as the upsert's conflict target).
  private readonly prepared = {
    /**
     * The author's like group, created or raised in one statement: nothing when the author switched
     * likes off or mutes the liker (the `not exists` guards select no row, so there is no conflict
     * either); a new group
     * with one liker; an existing one raised (unread, moved up, one more liker) only when this liker
     * is not in it yet, so a re-like raises nothing. One row affected when the liker must be added.
     * No RETURNING: on SQLite it made this statement several times dearer (a measured 4 → 16–38 µs),
     * the affected-row count says the same.
     */
    joinLikeGroup: new PreparedQuery(
      (ex, p: { id: string; userId: string; postId: string; actorId: string; createdAt: string }) =>
        ex
          .insertInto('notifications')
          .columns(['id', 'user_id', 'kind', 'post_id', 'created_at'])
          .expression(
            ex
              .selectNoFrom([
                sql<string>`${p.id}`.as('id'),
                sql<string>`${p.userId}`.as('user_id'),
                sql.lit('like').as('kind'),
                sql<string>`${p.postId}`.as('post_id'),
                sql<string>`${p.createdAt}`.as('created_at'),
              ])
              .where((eb) =>
                eb.and([
                  eb.not(
                    eb.exists(
                      eb
                        .selectFrom('notification_settings')
                        .select('user_id')
                        .where('user_id', '=', p.userId)
                        .where('kind', '=', sql.lit('like')),
                    ),
                  ),
                  // Nor when the author mutes the liker (decision 048): one probe of mutes' key, in
                  // the statement the like runs anyway.
                  authorNotMutedBy(p.userId, sql<string>`${p.actorId}`),
                ]),
              ),
          )
          .onConflict((oc) =>
            oc
              .columns(['user_id', 'post_id'])
              .where(sql.ref('kind'), '=', sql.lit('like'))
              .doUpdateSet((eb) => ({
                created_at: eb.ref('excluded.created_at'),
                read: 0,
                actors_count: eb('notifications.actors_count', '+', 1),
              }))
              .where((eb) =>
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom('notification_actors')
                      .select('actor_id')
                      .whereRef('notification_actors.notification_id', '=', 'notifications.id')
                      .where('notification_actors.actor_id', '=', p.actorId),
                  ),
                ),
              ),
          ),
    ),
    addActor: new PreparedQuery((ex, p: { notificationId: string; actorId: string; createdAt: string }) =>
      ex
        .insertInto('notification_actors')
        .values({ notification_id: p.notificationId, actor_id: p.actorId, created_at: p.createdAt })
        .onConflict((oc) => oc.columns(['notification_id', 'actor_id']).doNothing()),
    ),
    /**
     * An unlike's first step: the group (by its id, likeGroupId) loses one liker — only while it is
     * unread and only when it holds this liker. One row affected when the liker must leave.
     */
    leaveUnread: new PreparedQuery((ex, p: { id: string; actorId: string }) =>
      ex
        .updateTable('notifications')
        .set((eb) => ({ actors_count: eb('actors_count', '-', 1) }))
        .where('id', '=', p.id)
        .where('read', '=', 0)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('notification_actors')
              .select('actor_id')
              .where('notification_actors.notification_id', '=', p.id)
              .where('notification_actors.actor_id', '=', p.actorId),
          ),
        ),
    ),
    removeActor: new PreparedQuery((ex, p: { notificationId: string; actorId: string }) =>
      ex
        .deleteFrom('notification_actors')
        .where('notification_id', '=', p.notificationId)
        .where('actor_id', '=', p.actorId),
    ),
    /** The group goes with its last liker. */
    deleteIfEmpty: new PreparedQuery((ex, p: { id: string }) =>
      ex.deleteFrom('notifications').where('id', '=', p.id).where('actors_count', '<=', 0),
    ),
    unreadCount: new PreparedQuery((ex, p: { userId: string }) =>
      ex
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('user_id', '=', p.userId)
        .where('read', '=', 0),
    ),
  };

  /** The kinds each of these users switched off. */
  async kindsOff(userIds: readonly string[], ex: Executor = this.db): Promise<Map<string, Set<NotificationKind>>> {
    const off = new Map<string, Set<NotificationKind>>();
    if (userIds.length === 0) return off;
    const rows = await ex
      .selectFrom('notification_settings')
      .select(['user_id', 'kind'])
      .where('user_id', 'in', [...new Set(userIds)])
      .execute();
    for (const row of rows) {
      const kinds = off.get(row.user_id) ?? new Set<NotificationKind>();
      kinds.add(row.kind);
      off.set(row.user_id, kinds);
    }
    return off;
  }

  /**
   * What keeps `actorId`'s action from notifying each of these users, in one statement (the one a
   * notification write runs anyway): the kinds each switched off, and who mutes the actor
   * (decision 048: a muted user's actions notify nobody who muted them).
   */
  async silenced(
    userIds: readonly string[],
    actorId: string,
    ex: Executor,
  ): Promise<{ off: Map<string, Set<NotificationKind>>; muting: Set<string> }> {
    const off = new Map<string, Set<NotificationKind>>();
    const muting = new Set<string>();
    if (userIds.length === 0) return { off, muting };
    const ids = [...new Set(userIds)];
    const rows = await ex
      .selectFrom('notification_settings')
      .select(['user_id', sql<NotificationKind | null>`kind`.as('kind')])
      .where('user_id', 'in', ids)
      .unionAll(
        ex
          .selectFrom('mutes')
          // A null kind: this user mutes the actor.
          .select(['user_id', sql<NotificationKind | null>`null`.as('kind')])
          .where('user_id', 'in', ids)
          .where('other_id', '=', actorId),
      )
      .execute();
    for (const row of rows) {
      if (row.kind === null) {
        muting.add(row.user_id);
        continue;
      }
      const kinds = off.get(row.user_id) ?? new Set<NotificationKind>();
      kinds.add(row.kind);
      off.set(row.user_id, kinds);
    }
    return { off, muting };
  }

  async switchOff(userId: string, kinds: NotificationKind[], ex: Executor): Promise<void> {
    if (kinds.length === 0) return;
    await ex
      .insertInto('notification_settings')
      .values(kinds.map((kind) => ({ user_id: userId, kind })))
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
      .execute();
  }

  async switchOn(userId: string, kinds: NotificationKind[], ex: Executor): Promise<void> {
    if (kinds.length === 0) return;
    await ex.deleteFrom('notification_settings').where('user_id', '=', userId).where('kind', 'in', kinds).execute();
  }

  /**
   * A like of the user's post by someone else: the liker joins the user's like group (created on
   * the first like) unless the user switched likes off or the liker is already in it. Two
   * statements when the group changes, one otherwise. True when it changed.
   */
  async joinLikeGroup(
    event: { id: string; userId: string; postId: string; actorId: string; createdAt: string },
    ex: Executor,
  ): Promise<boolean> {
    const written = await this.prepared.joinLikeGroup.execute(ex, event);
    if (Number(written.numAffectedRows ?? 0) === 0) return false;
    const { id, actorId, createdAt } = event;
    await this.prepared.addActor.execute(ex, { notificationId: id, actorId, createdAt });
    return true;
  }

  /**
   * An unlike: the liker leaves the like group `id` if it is unread and holds them. One statement
   * when it does not; else the liker's row goes and the group with its last liker (three, all by
   * primary key). True when it changed.
   */
  async leaveLikeGroup(id: string, actorId: string, ex: Executor): Promise<boolean> {
    const left = await this.prepared.leaveUnread.execute(ex, { id, actorId });
    if (Number(left.numAffectedRows ?? 0) === 0) return false;
    await this.prepared.removeActor.execute(ex, { notificationId: id, actorId });
    await this.prepared.deleteIfEmpty.execute(ex, { id });
    return true;
  }

  /** A notification with its one actor. */
  async insert(row: NewNotification, actorId: string, ex: Executor): Promise<void> {
    await ex.insertInto('notifications').values(row).execute();
    await this.prepared.addActor.execute(ex, { notificationId: row.id, actorId, createdAt: row.created_at });
  }

  async delete(ids: string[], ex: Executor): Promise<void> {
    if (ids.length === 0) return;
    await ex.deleteFrom('notifications').where('id', 'in', ids).execute();
  }

  /** The unread notifications about these comments, withdrawn; answers their recipients. */
  async withdrawUnreadOfComments(commentIds: string[], ex: Executor): Promise<string[]> {
    if (commentIds.length === 0) return [];
    const rows = await ex
      .deleteFrom('notifications')
      .where('comment_id', 'in', commentIds)
      .where('read', '=', 0)
      .returning('user_id')
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** The follower's unread follow notification of the followee, withdrawn; true if there was one. */
  async withdrawUnreadFollow(followeeId: string, followerId: string, ex: Executor): Promise<boolean> {
    const rows = await ex
      .deleteFrom('notifications')
      .where('user_id', '=', followeeId)
      .where('kind', '=', 'follow')
      .where('read', '=', 0)
      .where('id', 'in', (eb) =>
        eb.selectFrom('notification_actors').select('notification_id').where('actor_id', '=', followerId),
      )
      .returning('user_id')
      .execute();
    return rows.length > 0;
  }

  /**
   * A block (decision 048): the blocked user's unread notifications to the blocker are withdrawn.
   * Like groups lose them as a liker (the group goes with its last one); every other kind has one
   * actor and goes. Read ones stay. Answers whether anything changed.
   */
  async withdrawUnreadFrom(recipientId: string, actorId: string, ex: Executor): Promise<boolean> {
    const byActor = (eb: ExpressionBuilder<Database, 'notifications'>) =>
      eb.selectFrom('notification_actors').select('notification_id').where('actor_id', '=', actorId);
    const single = await ex
      .deleteFrom('notifications')
      .where('user_id', '=', recipientId)
      .where('read', '=', 0)
      .where('kind', '<>', 'like')
      .where('id', 'in', byActor)
      .executeTakeFirst();
    const groups = await ex
      .updateTable('notifications')
      .set((eb) => ({ actors_count: eb('actors_count', '-', 1) }))
      .where('user_id', '=', recipientId)
      .where('read', '=', 0)
      .where('kind', '=', 'like')
      .where('id', 'in', byActor)
      .returning('id')
      .execute();
    if (groups.length > 0) {
      const ids = groups.map((group) => group.id);
      await ex
        .deleteFrom('notification_actors')
        .where('actor_id', '=', actorId)
        .where('notification_id', 'in', ids)
        .execute();
      await ex.deleteFrom('notifications').where('id', 'in', ids).where('actors_count', '<=', 0).execute();
    }
    return Number(single.numDeletedRows) > 0 || groups.length > 0;
  }

  /** Who already has a notification about this comment (one per event per person). */
  async recipientsOfComment(commentId: string, ex: Executor): Promise<Set<string>> {
    const rows = await ex.selectFrom('notifications').select('user_id').where('comment_id', '=', commentId).execute();
    return new Set(rows.map((row) => row.user_id));
  }

  /** Which of these users have a mention notification about the post itself (not a comment). */
  async mentionedAboutPost(postId: string, userIds: string[], ex: Executor): Promise<Set<string>> {
    const rows = await ex
      .selectFrom('notifications')
      .select('user_id')
      .where('post_id', '=', postId)
      .where('kind', '=', 'mention')
      .where('comment_id', 'is', null)
      .where('user_id', 'in', userIds)
      .execute();
    return new Set(rows.map((row) => row.user_id));
  }

  /** The author of a live comment of this post; undefined for a missing or deleted one. */
  async liveCommentAuthor(postId: string, commentId: string, ex: Executor): Promise<string | undefined> {
    const row = await ex
      .selectFrom('comments')
      .select('author_id')
      .where('id', '=', commentId)
      .where('post_id', '=', postId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return row?.author_id;
  }

  async unreadCount(userId: string, ex: Executor = this.db): Promise<number> {
    const row = await this.prepared.unreadCount.first(ex, { userId });
    return Number(row?.count ?? 0);
  }

  /** Marks the user's own notifications among these ids (or all of them) read. */
  async markRead(userId: string, ids: string[] | 'all', ex: Executor = this.db): Promise<number> {
    if (ids !== 'all' && ids.length === 0) return 0;
    const result = await ex
      .updateTable('notifications')
      .set({ read: 1 })
      .where('user_id', '=', userId)
      .where('read', '=', 0)
      .$if(ids !== 'all', (query) => query.where('id', 'in', ids as string[]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** A page of the user's notifications, newest first by (created_at, id). */
  page(userId: string, page: { limit: number; after?: Keyset }): Promise<NotificationWithTarget[]> {
    const query = this.withTargets(this.db).where('notifications.user_id', '=', userId);
    return keysetPage(
      query,
      'notifications',
      page.after ? { limit: page.limit, keyset: page.after } : { limit: page.limit, offset: 0 },
    ).execute();
  }

  /** The user's notifications changed (created or moved up) after the keyset, oldest first. */
  changedSince(userId: string, after: Keyset | null, limit: number): Promise<NotificationWithTarget[]> {
    let query = this.withTargets(this.db).where('notifications.user_id', '=', userId);
    if (after) {
      query = query.where((eb) =>
        eb(eb.refTuple('notifications.created_at', 'notifications.id'), '>', eb.tuple(after.createdAt, after.id)),
      );
    }
    return query.orderBy('notifications.created_at').orderBy('notifications.id').limit(limit).execute();
  }

  /** The (created_at, id) of the user's notifications after `from` (index-only on user_created_idx). */
  async keysSince(userId: string, from: Keyset): Promise<Keyset[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .select(['id', 'created_at'])
      .where('user_id', '=', userId)
      .where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(from.createdAt, from.id)))
      .execute();
    return rows.map((row) => ({ createdAt: row.created_at, id: row.id }));
  }

  /** The user's newest notification's (created_at, id): where a fresh stream starts. */
  async newestKey(userId: string): Promise<Keyset | null> {
    const row = await this.db
      .selectFrom('notifications')
      .select(['id', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { createdAt: row.created_at, id: row.id } : null;
  }

  /** The newest `perNotification` actors of each notification, newest first, in one statement. */
  async newestActors(notificationIds: string[], perNotification: number): Promise<ActorRow[]> {
    if (notificationIds.length === 0) return [];
    const ranked = this.db
      .selectFrom('notification_actors')
      .select([
        'notification_id',
        'actor_id',
        'created_at',
        sql<number>`row_number() over (partition by notification_id order by created_at desc, actor_id desc)`.as(
          'rank',
        ),
      ])
      .where('notification_id', 'in', notificationIds);
    return this.db
      .selectFrom(ranked.as('ranked'))
      .innerJoin('users', 'users.id', 'ranked.actor_id')
      .select(['ranked.notification_id', 'users.id', 'users.user_name', 'users.pic'])
      .where('ranked.rank', '<=', perNotification)
      .orderBy('ranked.notification_id')
      .orderBy('ranked.rank')
      .execute();
  }

  async insertTicket(id: string, userId: string, expiresAt: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Tickets nobody redeemed are swept as new ones are issued.
      await trx.deleteFrom('stream_tickets').where('expires_at', '<=', now).execute();
      await trx.insertInto('stream_tickets').values({ id, user_id: userId, expires_at: expiresAt }).execute();
    });
  }

  /** Redeems a ticket: one statement, so two uses racing cannot both win. The user's id, or undefined. */
  async redeemTicket(id: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('stream_tickets')
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  private withTargets(ex: Executor) {
    return ex
      .selectFrom('notifications')
      .leftJoin('posts', 'posts.id', 'notifications.post_id')
      .leftJoin('comments', 'comments.id', 'notifications.comment_id')
      .leftJoin('notices', 'notices.id', 'notifications.notice_id')
      .select([
        'notifications.id',
        'notifications.kind',
        'notifications.post_id',
        'notifications.comment_id',
        'notifications.notice_id',
        'notifications.actors_count',
        'notifications.read',
        'notifications.created_at',
        'posts.title as post_title',
        'comments.text as comment_text',
        'comments.deleted as comment_deleted',
        'notices.description as notice_text',
      ]);
  }
}
