import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { type DataSet, SQLITE_FILE } from './data-set';

/**
 * Issue 21's signed-in reads are spread over many readers (scenarios.ts), and two of them need
 * readers of a kind the seed summary names only one of: users following 1,000 others (about 1 %
 * of the users, by the seed's plan) and users following a tag. The API lists neither, so they are
 * read from the database beside the running server (read-only), like the counters check does.
 * Every seeded account shares the summary's password, so the names are enough to sign them in.
 */
export interface ReaderNames {
  /** Users following at least `minFollows` others, oldest first. */
  heavyFollowers: string[];
  /** Users following at least one tag, oldest first. */
  tagFollowers: string[];
}

export async function findReaderNames(dataSet: DataSet, minFollows: number, wanted: number): Promise<ReaderNames> {
  const limit = Math.max(1, Math.floor(wanted));
  const min = Math.max(1, Math.floor(minFollows));
  const heavy = await selectNames(
    dataSet,
    `select u.user_name as name from follows f join users u on u.id = f.follower_id
       group by u.id, u.user_name having count(*) >= ${min} order by u.id limit ${limit}`,
  );
  const tags = await selectNames(
    dataSet,
    `select u.user_name as name from users u
       where exists (select 1 from tag_prefs t where t.user_id = u.id and t.kind = 'follow')
       order by u.id limit ${limit}`,
  );
  return { heavyFollowers: heavy, tagFollowers: tags };
}

/**
 * A post with comments that no other scenario reads by id (not the viral post, nor the one with
 * 200 comments) and whose author can edit it as it is (a category: the edit form requires one):
 * the one with the most comments, so the post page has a full first page of them.
 */
export async function findCommentedPost(dataSet: DataSet, avoid: readonly string[]): Promise<string | null> {
  const ids = avoid.filter((id) => /^[0-9a-f]+$/i.test(id));
  const notIn = ids.length > 0 ? `and id not in (${ids.map((id) => `'${id}'`).join(', ')})` : '';
  const rows = await select<{ id: string }>(
    dataSet,
    `select id from posts where comments_count > 0 and category <> '' and removed_at is null ${notIn}
       order by comments_count desc, id limit 1`,
  );
  return rows[0]?.id ?? null;
}

async function selectNames(dataSet: DataSet, sql: string): Promise<string[]> {
  const rows = await select<{ name: string }>(dataSet, sql);
  return rows.map((row) => row.name).filter((name) => typeof name === 'string' && name.length > 0);
}

/** One query without parameters (the callers inline only whole numbers and hex ids). */
async function select<Row>(dataSet: DataSet, sql: string): Promise<Row[]> {
  if (dataSet.databaseUrl) {
    const client = new Client({ connectionString: dataSet.databaseUrl });
    await client.connect();
    try {
      return (await client.query<Row & Record<string, unknown>>(sql)).rows;
    } finally {
      await client.end();
    }
  }
  // Read-only beside the running server: WAL lets this read a consistent snapshot.
  const db = new Database(join(dataSet.dir, SQLITE_FILE), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], Row>(sql).all();
  } finally {
    db.close();
  }
}
