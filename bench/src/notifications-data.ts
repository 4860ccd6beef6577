import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { likeGroupId } from '@techit/backend/notifications/like-group-id';
import { Client } from 'pg';
import { type DataSet, SQLITE_FILE } from './data-set';

/**
 * Issue 18's list target is for a user holding 10,000 notifications; the seed writes none (the
 * app writes them as people act). So the bench tops the reader up in bulk, beside the running
 * server (which has migrated the tables): likes grouped per post with up to three actors,
 * comments on posts with the comment's author, follows; newest every minute back from now,
 * a fifth unread. Run after run the count stays at `wanted`: only the shortfall is written.
 */
export interface NotificationRowsSource {
  postIds: string[];
  comments: { id: string; postId: string; authorId: string }[];
  userIds: string[];
}

interface NotificationRow {
  id: string;
  user_id: string;
  kind: string;
  post_id: string | null;
  comment_id: string | null;
  actors_count: number;
  read: number;
  created_at: string;
}

interface ActorRow {
  notification_id: string;
  actor_id: string;
  created_at: string;
}

/** Like notifications per post are unique for a user, so a top-up after the first writes no likes. */
function buildRows(
  userId: string,
  existing: number,
  wanted: number,
  source: NotificationRowsSource,
): { notifications: NotificationRow[]; actors: ActorRow[] } {
  const notifications: NotificationRow[] = [];
  const actors: ActorRow[] = [];
  const others = source.userIds.filter((id) => id !== userId);
  const now = Date.now();
  const stamp = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  for (let index = existing; index < wanted; index += 1) {
    const createdAt = new Date(now - (index + 1) * 60_000).toISOString();
    const third = index % 3;
    const post = source.postIds[Math.floor(index / 3) % source.postIds.length];
    const comment = source.comments[index % source.comments.length];
    const actor = others[index % others.length];
    // Likes only on a first fill: one group per (user, post), which the app's unique index holds.
    const kind = third === 0 && existing === 0 ? 'like' : third === 1 ? 'comment' : 'follow';
    // A like group's id is derived from its key, as the app derives it (its like path relies on it).
    const id = kind === 'like' ? likeGroupId(userId, post) : stamp + randomBytes(8).toString('hex');
    const actorIds =
      kind === 'like'
        ? [...new Set([actor, others[(index + 1) % others.length], others[(index + 2) % others.length]])]
        : kind === 'comment'
          ? [comment.authorId === userId ? actor : comment.authorId]
          : [actor];
    notifications.push({
      id,
      user_id: userId,
      kind,
      post_id: kind === 'like' ? post : kind === 'comment' ? comment.postId : null,
      comment_id: kind === 'comment' ? comment.id : null,
      actors_count: actorIds.length,
      read: index % 5 === 0 ? 0 : 1,
      created_at: createdAt,
    });
    for (const actorId of actorIds) actors.push({ notification_id: id, actor_id: actorId, created_at: createdAt });
  }
  return { notifications, actors };
}

/** Makes `userId` hold `wanted` notifications; returns how many were written. */
export async function ensureNotifications(dataSet: DataSet, userId: string, wanted: number): Promise<number> {
  return dataSet.databaseUrl
    ? ensureOnPostgres(dataSet.databaseUrl, userId, wanted)
    : ensureOnSqlite(join(dataSet.dir, SQLITE_FILE), userId, wanted);
}

function ensureOnSqlite(file: string, userId: string, wanted: number): number {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const existing = (
      db.prepare('select count(*) as n from notifications where user_id = ?').get(userId) as { n: number }
    ).n;
    if (existing >= wanted) return 0;
    const limit = Math.min(wanted, 5000);
    const source: NotificationRowsSource = {
      postIds: (db.prepare('select id from posts order by id limit ?').all(limit) as { id: string }[]).map((r) => r.id),
      comments: (
        db.prepare('select id, post_id, author_id from comments order by id limit ?').all(limit) as {
          id: string;
          post_id: string;
          author_id: string;
        }[]
      ).map((r) => ({ id: r.id, postId: r.post_id, authorId: r.author_id })),
      userIds: (db.prepare('select id from users order by id limit ?').all(limit) as { id: string }[]).map((r) => r.id),
    };
    const { notifications, actors } = buildRows(userId, existing, wanted, source);
    const insertNotification = db.prepare(
      'insert into notifications (id, user_id, kind, post_id, comment_id, actors_count, read, created_at) values (@id, @user_id, @kind, @post_id, @comment_id, @actors_count, @read, @created_at)',
    );
    const insertActor = db.prepare(
      'insert into notification_actors (notification_id, actor_id, created_at) values (@notification_id, @actor_id, @created_at)',
    );
    db.transaction(() => {
      for (const row of notifications) insertNotification.run(row);
      for (const row of actors) insertActor.run(row);
    })();
    // As on PostgreSQL below: statistics for the planner after a bulk load, as the seed leaves them.
    db.exec('analyze notifications; analyze notification_actors');
    return notifications.length;
  } finally {
    db.close();
  }
}

async function ensureOnPostgres(url: string, userId: string, wanted: number): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const existing = Number(
      (await client.query<{ n: string }>('select count(*) as n from notifications where user_id = $1', [userId]))
        .rows[0].n,
    );
    if (existing >= wanted) return 0;
    const limit = Math.min(wanted, 5000);
    const source: NotificationRowsSource = {
      postIds: (await client.query<{ id: string }>('select id from posts order by id limit $1', [limit])).rows.map(
        (r) => r.id,
      ),
      comments: (
        await client.query<{ id: string; post_id: string; author_id: string }>(
          'select id, post_id, author_id from comments order by id limit $1',
          [limit],
        )
      ).rows.map((r) => ({ id: r.id, postId: r.post_id, authorId: r.author_id })),
      userIds: (await client.query<{ id: string }>('select id from users order by id limit $1', [limit])).rows.map(
        (r) => r.id,
      ),
    };
    const { notifications, actors } = buildRows(userId, existing, wanted, source);
    await client.query('begin');
    await client.query(
      `insert into notifications (id, user_id, kind, post_id, comment_id, actors_count, read, created_at)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[])`,
      [
        notifications.map((r) => r.id),
        notifications.map((r) => r.user_id),
        notifications.map((r) => r.kind),
        notifications.map((r) => r.post_id),
        notifications.map((r) => r.comment_id),
        notifications.map((r) => r.actors_count),
        notifications.map((r) => r.read),
        notifications.map((r) => r.created_at),
      ],
    );
    await client.query(
      `insert into notification_actors (notification_id, actor_id, created_at)
       select * from unnest($1::text[], $2::text[], $3::text[])`,
      [actors.map((r) => r.notification_id), actors.map((r) => r.actor_id), actors.map((r) => r.created_at)],
    );
    await client.query('commit');
    // Fresh planner statistics, as the seed leaves its tables: a bulk load is not yet known to the
    // planner (autovacuum analyzes later), and the list would be measured under a plan made blind.
    await client.query('analyze notifications, notification_actors');
    return notifications.length;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
