import { type Kysely, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Deleting a post or changing a picture frees the old image unless another row still shows it,
 * and the orphan sweep asks the same of every old upload: both look rows up by image URL. The
 * photo index is partial because most posts have none (photo = '').
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('posts_photo_idx')
    .on('posts')
    .column('photo')
    .where(sql.ref('photo'), '<>', '')
    .execute();
  await db.schema.createIndex('users_pic_idx').on('users').column('pic').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_pic_idx').execute();
  await db.schema.dropIndex('posts_photo_idx').execute();
}
