import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * `posts.title_key`: the title reduced to its words (runs of letters and digits, lower-cased, one
 * space between), written by the app with every title (search's `titleKey`), under a btree index.
 * Search's exact-title step (a post whose title is the query comes first; decision 034) becomes
 * one equality on both databases. On SQLite it was an FTS5 match on the title, which walked every
 * post holding the words anywhere: 70 ms for `rust async` and over 600 ms for `kubernetes` at 1M
 * posts (docs/performance.md, issue 21). PostgreSQL had an expression index on
 * `post_title_key(title)` for the same equality: it goes, with its index, so both databases read
 * one column kept by one function (the app's).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('posts')
    .addColumn('title_key', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  // The reduction runs here, a frozen copy of the app's (search-query.parser.ts tokensOf), on both
  // databases: SQLite has no Unicode-aware lower() or regular expressions, and PostgreSQL's
  // (post_title_key) folds only what its ctype knows, so its keys could differ from the app's.
  const reduce = (title: string) => (title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
  let after = '';
  for (;;) {
    const rows: { id: string; title: string }[] = await db
      .selectFrom('posts')
      .select(['id', 'title'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    const keyed = rows.map((row) => ({ id: row.id, key: reduce(row.title) }));
    if (isSqlite(db)) {
      // One short statement per row: SQLite runs them in-process.
      for (const row of keyed)
        await db.updateTable('posts').set({ title_key: row.key }).where('id', '=', row.id).execute();
    } else {
      // One statement per batch: a round trip per row would take minutes at 1M posts.
      const values = sql.join(keyed.map((row) => sql`(${row.id}, ${row.key})`));
      await sql`update posts set title_key = batch.key from (values ${values}) as batch(id, key)
        where posts.id = batch.id`.execute(db);
    }
    after = rows[rows.length - 1].id;
  }
  if (!isSqlite(db)) {
    await sql`drop index posts_title_key_idx`.execute(db);
    await sql`drop function post_title_key(text)`.execute(db);
  }
  await db.schema.createIndex('posts_title_key_idx').on('posts').column('title_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('posts_title_key_idx').execute();
  if (!isSqlite(db)) {
    await sql`create function post_title_key(title text) returns text
      language sql immutable parallel safe as $$
        select btrim(regexp_replace(lower(title), '[^[:alnum:]]+', ' ', 'g'))
      $$`.execute(db);
    await sql`create index posts_title_key_idx on posts (post_title_key(title))`.execute(db);
  }
  await db.schema.alterTable('posts').dropColumn('title_key').execute();
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
