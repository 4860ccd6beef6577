import { type Kysely, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    // The email as compared: NFC-normalised and lower-cased by the app (Unicode-aware), because
    // SQLite's lower() only folds ASCII and the two databases must agree on who is a duplicate.
    .addColumn('email_key', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('pic', 'text', (col) => col.notNull())
    .addColumn('position', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('bio', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('theme', 'text', (col) => col.notNull().defaultTo('light'))
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('user'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // Case-insensitive uniqueness: "Ada" and "ada" are the same account. userNames are ASCII by
  // rule, so lower() folds them the same way on both databases.
  await db.schema
    .createIndex('users_user_name_lower_key')
    .on('users')
    .unique()
    .expression(sql`lower(user_name)`)
    .execute();
  await db.schema.createIndex('users_email_key').on('users').unique().column('email_key').execute();

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followee_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('follows_pkey', ['follower_id', 'followee_id'])
    .execute();
  await db.schema.createIndex('follows_followee_idx').on('follows').columns(['followee_id', 'follower_id']).execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('author_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('photo', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('category', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('link1', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('link2', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('likes_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('comments_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('commenters_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // The for-you feed, newest first (an index is read backwards for DESC on both dialects).
  await db.schema.createIndex('posts_created_idx').on('posts').columns(['created_at', 'id']).execute();
  // A profile's posts and the following feed.
  await db.schema
    .createIndex('posts_author_created_idx')
    .on('posts')
    .columns(['author_id', 'created_at', 'id'])
    .execute();
  // Top posts: the same expression as the ORDER BY, so the planner reads the top 5 off the index.
  await db.schema
    .createIndex('posts_top_idx')
    .on('posts')
    .expression(sql`(likes_count + commenters_count), created_at, id`)
    .execute();

  await db.schema
    .createTable('likes')
    .addColumn('post_id', 'text', (col) => col.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('likes_pkey', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('likes_user_idx').on('likes').columns(['user_id', 'post_id']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('post_id', 'text', (col) => col.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('comments_post_created_idx')
    .on('comments')
    .columns(['post_id', 'created_at', 'id'])
    .execute();
  // Counting distinct commenters of a post after a comment is added or removed.
  await db.schema.createIndex('comments_post_author_idx').on('comments').columns(['post_id', 'author_id']).execute();
  await db.schema.createIndex('comments_author_idx').on('comments').column('author_id').execute();

  await db.schema
    .createTable('notices')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('author_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('links', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('tags', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('notices_created_idx').on('notices').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('notices_author_created_idx')
    .on('notices')
    .columns(['author_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['notices', 'comments', 'likes', 'posts', 'follows', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
