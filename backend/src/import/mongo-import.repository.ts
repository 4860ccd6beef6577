import { type InsertResult, sql, type Transaction } from 'kysely';
import type { Database, Db, Dialect, Executor } from '../database/database.types';
import { hotScore } from '../posts/hot-score';
import type { ExistingUser, ImportRows } from './mongo-import.planner';

export type ImportTable = keyof ImportRows;
export const IMPORT_TABLES: readonly ImportTable[] = ['users', 'follows', 'posts', 'likes', 'comments', 'notices'];

/**
 * Rows per INSERT: 13 columns × 500 stays far below SQLite's 32,766 and PostgreSQL's 65,535 bound
 * parameters, and a statement stays small enough to plan quickly.
 */
const CHUNK = 500;

/**
 * The importer's only door to the database. Every insert is "insert, or leave the row that is
 * already there" keyed by the kept ids, so a second run writes nothing and never overwrites what
 * people changed in the new app since the first (an argon2id re-hash, a new bio).
 */
export class MongoImportRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Accounts that share an id, a userName (ignoring case) or an email key with the export's. */
  async usersMatching(
    ex: Executor,
    keys: { ids: string[]; userNameKeys: string[]; emailKeys: string[] },
  ): Promise<ExistingUser[]> {
    const found = new Map<string, ExistingUser>();
    const select = () => ex.selectFrom('users').select(['id', 'user_name', 'email_key']);
    const batches = [
      ...chunks(keys.ids).map((ids) => select().where('id', 'in', ids)),
      ...chunks(keys.userNameKeys).map((names) => select().where(sql<string>`lower(user_name)`, 'in', names)),
      ...chunks(keys.emailKeys).map((emails) => select().where('email_key', 'in', emails)),
    ];
    for (const query of batches) for (const user of await query.execute()) found.set(user.id, user);
    return [...found.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Inserts every row whose key is not taken yet, children after parents; returns how many went in per table. */
  async insertAll(ex: Executor, rows: ImportRows): Promise<Record<ImportTable, number>> {
    return {
      users: await insertChunks(rows.users, (chunk) =>
        ex
          .insertInto('users')
          .values(chunk)
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst(),
      ),
      follows: await insertChunks(rows.follows, (chunk) =>
        ex
          .insertInto('follows')
          .values(chunk)
          .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
          .executeTakeFirst(),
      ),
      posts: await insertChunks(rows.posts, (chunk) =>
        ex
          .insertInto('posts')
          .values(chunk)
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst(),
      ),
      likes: await insertChunks(rows.likes, (chunk) =>
        ex
          .insertInto('likes')
          .values(chunk)
          .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
          .executeTakeFirst(),
      ),
      comments: await insertChunks(rows.comments, (chunk) =>
        ex
          .insertInto('comments')
          .values(chunk)
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst(),
      ),
      notices: await insertChunks(rows.notices, (chunk) =>
        ex
          .insertInto('notices')
          .values(chunk)
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst(),
      ),
    };
  }

  /**
   * Sets each post's counters to what its rows say, counted in the database: a post that was
   * already there may hold likes and comments made in the new app. Only posts whose counters
   * differ are written; returns how many.
   */
  async rebuildPostCounters(ex: Executor, postIds: string[]): Promise<number> {
    const likes = sql<number>`(select count(*) from likes where likes.post_id = posts.id)`;
    const comments = sql<number>`(select count(*) from comments where comments.post_id = posts.id)`;
    const commenters = sql<number>`(select count(distinct comments.author_id) from comments where comments.post_id = posts.id)`;
    let changed = 0;
    for (const ids of chunks(postIds)) {
      const result = await ex
        .updateTable('posts')
        .set({ likes_count: likes, comments_count: comments, commenters_count: commenters })
        .where('id', 'in', ids)
        .where((eb) =>
          eb.or([
            eb('likes_count', '<>', likes),
            eb('comments_count', '<>', comments),
            eb('commenters_count', '<>', commenters),
          ]),
        )
        .executeTakeFirst();
      changed += Number(result.numUpdatedRows);
      await this.rescore(ex, ids);
    }
    return changed;
  }

  /** Each post's hot score from its counters as they now are, written where it differs. */
  private async rescore(ex: Executor, ids: string[]): Promise<void> {
    const rows = await ex
      .selectFrom('posts')
      .select(['id', 'likes_count', 'commenters_count', 'created_at', 'hot_score'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      const score = hotScore(row);
      if (score !== row.hot_score) {
        await ex.updateTable('posts').set({ hot_score: score }).where('id', '=', row.id).execute();
      }
    }
  }

  /** Fresh planner statistics for the tables the import filled (as after `npm run seed`). */
  async analyze(): Promise<void> {
    // A bare ANALYZE on PostgreSQL would visit every schema of the database, not just this one.
    if (this.dialect === 'postgres') await sql`analyze ${sql.raw(IMPORT_TABLES.join(', '))}`.execute(this.db);
    else await sql`analyze`.execute(this.db);
  }
}

async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<InsertResult>): Promise<number> {
  let inserted = 0;
  for (const chunk of chunks(rows)) inserted += Number((await insert(chunk)).numInsertedOrUpdatedRows ?? 0n);
  return inserted;
}

function chunks<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) result.push(items.slice(start, start + CHUNK));
  return result;
}
