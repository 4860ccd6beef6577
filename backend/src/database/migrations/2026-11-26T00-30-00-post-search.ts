import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Full-text search over posts' title, desc and body (docs/decisions/034-search.md). The one
 * place the two databases differ in schema, because each has its own full-text engine:
 *
 * - SQLite: an FTS5 table with external content (the text stays in `posts` only; the index
 *   holds tokens), keyed by the posts table's rowid, kept in step by triggers inside the very
 *   statement that writes the post; `posts_fts_vocab` lists its terms for the typo step.
 *   A rowid can change on VACUUM (posts has a text primary key): after one, run
 *   `INSERT INTO posts_fts(posts_fts) VALUES ('rebuild')`.
 * - PostgreSQL: `post_search` holds each post's weighted tsvector (title A, desc B, body C) under
 *   a GIN index, written by a trigger. A side table rather than a column of posts, because the
 *   feeds select `posts.*` and would otherwise carry every tsvector to the server.
 *
 * Both tokenise the same way: runs of letters and digits, lower-cased (PostgreSQL's parser would
 * otherwise keep `node.js` or an email as one token that the SQLite side splits).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`create virtual table posts_fts using fts5(
      title, description, body, content='posts', tokenize='unicode61 remove_diacritics 2')`.execute(db);
    await sql`create virtual table posts_fts_vocab using fts5vocab(posts_fts, row)`.execute(db);
    await sql`create trigger posts_fts_insert after insert on posts begin
      insert into posts_fts (rowid, title, description, body) values (new.rowid, new.title, new.description, new.body);
    end`.execute(db);
    await sql`create trigger posts_fts_delete after delete on posts begin
      insert into posts_fts (posts_fts, rowid, title, description, body)
        values ('delete', old.rowid, old.title, old.description, old.body);
    end`.execute(db);
    // Only when the text changes: a like or comment moves a counter and must not touch the index.
    await sql`create trigger posts_fts_update after update of title, description, body on posts begin
      insert into posts_fts (posts_fts, rowid, title, description, body)
        values ('delete', old.rowid, old.title, old.description, old.body);
      insert into posts_fts (rowid, title, description, body) values (new.rowid, new.title, new.description, new.body);
    end`.execute(db);
    await sql`insert into posts_fts (posts_fts) values ('rebuild')`.execute(db);
    return;
  }
  await db.schema
    .createTable('post_search')
    .addColumn('post_id', 'text', (col) => col.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('document', sql`tsvector`, (col) => col.notNull())
    .execute();
  await sql`create index post_search_document_idx on post_search using gin (document)`.execute(db);
  await sql`create function post_search_document(title text, description text, body text) returns tsvector
    language sql immutable parallel safe as $$
      select setweight(to_tsvector('simple', regexp_replace(title, '[^[:alnum:]]+', ' ', 'g')), 'A')
        || setweight(to_tsvector('simple', regexp_replace(description, '[^[:alnum:]]+', ' ', 'g')), 'B')
        || setweight(to_tsvector('simple', regexp_replace(body, '[^[:alnum:]]+', ' ', 'g')), 'C')
    $$`.execute(db);
  await sql`create function post_search_sync() returns trigger language plpgsql as $$
    begin
      insert into post_search (post_id, document)
        values (new.id, post_search_document(new.title, new.description, new.body))
        on conflict (post_id) do update set document = excluded.document;
      return null;
    end $$`.execute(db);
  // Only when the text changes: a like or comment moves a counter and must not touch the index.
  await sql`create trigger post_search_sync after insert or update of title, description, body on posts
    for each row execute function post_search_sync()`.execute(db);
  await sql`insert into post_search (post_id, document)
    select id, post_search_document(title, description, body) from posts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const trigger of ['posts_fts_insert', 'posts_fts_delete', 'posts_fts_update']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table posts_fts_vocab`.execute(db);
    await sql`drop table posts_fts`.execute(db);
    return;
  }
  await sql`drop trigger post_search_sync on posts`.execute(db);
  await sql`drop function post_search_sync()`.execute(db);
  await db.schema.dropTable('post_search').execute();
  await sql`drop function post_search_document(text, text, text)`.execute(db);
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
