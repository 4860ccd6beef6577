import { type Kysely, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Notifications (issue 18, docs/decisions/039-notifications.md).
 *
 * `notifications`: one row per notification of `user_id` (the recipient). `created_at` is when it
 * last changed (a like group moves up when someone else likes the post), `read` 0/1, and
 * `actors_count` the number of its `notification_actors` rows (kept in the same transaction, so a
 * list never counts rows). A like notification groups a post's likers: at most one per (recipient,
 * post), which a partial unique index holds. `comment_id` is set null when the comment goes: a
 * notification already read keeps pointing at the post (unread ones are withdrawn first).
 *
 * `notification_actors`: who caused it, newest first by `created_at` (one row for every kind but
 * like). `notification_settings`: a row is a kind its user switched off (default: all on).
 * `stream_tickets`: single-use tickets for the event stream, by the SHA-256 of the ticket, so any
 * instance can redeem one another instance issued.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('post_id', 'text', (col) => col.references('posts.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (col) => col.references('comments.id').onDelete('set null'))
    .addColumn('notice_id', 'text', (col) => col.references('notices.id').onDelete('cascade'))
    .addColumn('actors_count', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('read', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  // A user's list, newest first by (created_at, id), and the stream's "changed since".
  await db.schema
    .createIndex('notifications_user_created_idx')
    .on('notifications')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  // The unread count: only unread rows are in it.
  await db.schema
    .createIndex('notifications_user_unread_idx')
    .on('notifications')
    .column('user_id')
    .where(sql.ref('read'), '=', 0)
    .execute();
  // One like group per recipient and post.
  await db.schema
    .createIndex('notifications_like_group_key')
    .on('notifications')
    .unique()
    .columns(['user_id', 'post_id'])
    .where(sql.ref('kind'), '=', 'like')
    .execute();
  // Withdrawal when a comment goes, and the foreign keys' cascades. Partial where most rows have
  // no value: a like group (the most written row, on the hottest write) has no comment nor notice,
  // so it stays out of those two b-trees; `comment_id = ?` (a withdrawal, a cascade) implies
  // `comment_id is not null`, so both databases still use them.
  await db.schema
    .createIndex('notifications_comment_idx')
    .on('notifications')
    .column('comment_id')
    .where(sql.ref('comment_id'), 'is not', null)
    .execute();
  await db.schema.createIndex('notifications_post_idx').on('notifications').column('post_id').execute();
  await db.schema
    .createIndex('notifications_notice_idx')
    .on('notifications')
    .column('notice_id')
    .where(sql.ref('notice_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('notification_actors')
    .addColumn('notification_id', 'text', (col) => col.notNull().references('notifications.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_actors_pkey', ['notification_id', 'actor_id'])
    .execute();
  // Withdrawing a follow (the follower's notification), and the cascade with a user.
  await db.schema
    .createIndex('notification_actors_actor_idx')
    .on('notification_actors')
    .columns(['actor_id', 'notification_id'])
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_settings_pkey', ['user_id', 'kind'])
    .execute();

  await db.schema
    .createTable('stream_tickets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('stream_tickets_expires_idx').on('stream_tickets').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stream_tickets').execute();
  await db.schema.dropTable('notification_settings').execute();
  await db.schema.dropTable('notification_actors').execute();
  await db.schema.dropTable('notifications').execute();
}
