import { type Kysely, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

const BATCH = 500;

/**
 * The hot feed's stored rank (docs/decisions/033-hot-feed.md): posts.hot_score, and the
 * (hot_score, id) index its pages and cursors read. Existing posts get their score here, computed
 * in JavaScript (the formula of backend/src/posts/hot-score.ts as it stood when this landed), in
 * batches by id: SQLite builds before 3.35 have no log10, and the epoch of an ISO text is written
 * differently on each database, while one JavaScript computation stores the same value on both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('posts')
    .addColumn('hot_score', 'double precision', (col) => col.notNull().defaultTo(0))
    .execute();
  let after = '';
  for (;;) {
    const rows: { id: string; likes_count: number; commenters_count: number; created_at: string }[] = await db
      .selectFrom('posts')
      .select(['id', 'likes_count', 'commenters_count', 'created_at'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    // One UPDATE per batch: a CASE over the batch's ids reads the same on both databases.
    const score = sql<number>`case id ${sql.join(
      rows.map((row) => sql`when ${row.id} then cast(${hotScore(row)} as double precision)`),
      sql` `,
    )} end`;
    await db
      .updateTable('posts')
      .set({ hot_score: score })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    after = rows[rows.length - 1].id;
  }
  await db.schema.createIndex('posts_hot_idx').on('posts').columns(['hot_score', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('posts_hot_idx').execute();
  await db.schema.alterTable('posts').dropColumn('hot_score').execute();
}

function hotScore(post: { likes_count: number; commenters_count: number; created_at: string }): number {
  const engagement = Math.max(1, Number(post.likes_count) + 2 * Number(post.commenters_count));
  return Math.log10(engagement) + Date.parse(post.created_at) / 1000 / 45_000;
}
