import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Post tags (issue 17, docs/decisions/032-tags.md). `tags` holds one row per name ever used or
 * followed, with its counters kept in the transaction of the change. `post_tags` is a post's tags
 * in the author's order; `tag_prefs` is what a user does with a tag: `follow` or `mute`, never
 * both (one row per user and tag, so following a muted tag simply turns the row over).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tags')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('posts_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('followers_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // Autocomplete: most-used first among a prefix's names.
  await db.schema.createIndex('tags_posts_count_idx').on('tags').columns(['posts_count', 'name']).execute();

  await db.schema
    .createTable('post_tags')
    .addColumn('post_id', 'text', (col) => col.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('tag', 'text', (col) => col.notNull().references('tags.name'))
    .addColumn('position', 'integer', (col) => col.notNull())
    // The post's created_at, copied so a tag's posts are read newest first from this index alone.
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('post_tags_pkey', ['post_id', 'tag'])
    .execute();
  // A tag's posts, newest first (the tag feed); the primary key serves a post's tags and the mute filter.
  await db.schema
    .createIndex('post_tags_tag_created_idx')
    .on('post_tags')
    .columns(['tag', 'created_at', 'post_id'])
    .execute();

  await db.schema
    .createTable('tag_prefs')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tag', 'text', (col) => col.notNull().references('tags.name'))
    // 'follow' or 'mute'.
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('tag_prefs_pkey', ['user_id', 'tag'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tag_prefs').execute();
  await db.schema.dropTable('post_tags').execute();
  await db.schema.dropTable('tags').execute();
}
