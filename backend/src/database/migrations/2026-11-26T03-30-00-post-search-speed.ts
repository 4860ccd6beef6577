import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * PostgreSQL search at 100k posts (docs/decisions/034-search.md, docs/performance.md "PostgreSQL
 * search, third pass"). SQLite already meets the targets with FTS5 and its vocabulary table, so
 * this migration does nothing there.
 *
 * - `post_title_key(title)`: a title reduced to its words (runs of letters and digits,
 *   lower-cased, one space between), the same reduction as the app's `titleKey`, under a btree
 *   expression index, so the exact-title step is an equality instead of a scan of every title.
 * - `post_search.created_at` (a copy of the post's, which never changes): the ranking window
 *   takes a query's newest matches from post_search alone, without a probe of posts per row.
 * - `post_search_words(word, docs)`: every indexed word with how many posts hold it, kept by a
 *   trigger on post_search, for the typo step (ts_stat read every document: 800 ms at 100k).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create function post_title_key(title text) returns text
    language sql immutable parallel safe as $$
      select btrim(regexp_replace(lower(title), '[^[:alnum:]]+', ' ', 'g'))
    $$`.execute(db);
  await sql`create index posts_title_key_idx on posts (post_title_key(title))`.execute(db);

  await sql`alter table post_search add column created_at text`.execute(db);
  await sql`update post_search set created_at = posts.created_at from posts where posts.id = post_search.post_id`.execute(
    db,
  );
  await sql`alter table post_search alter column created_at set not null`.execute(db);
  await sql`create or replace function post_search_sync() returns trigger language plpgsql as $$
    begin
      insert into post_search (post_id, document, created_at)
        values (new.id, post_search_document(new.title, new.description, new.body), new.created_at)
        on conflict (post_id) do update set document = excluded.document, created_at = excluded.created_at;
      return null;
    end $$`.execute(db);

  await db.schema
    .createTable('post_search_words')
    .addColumn('word', 'text', (col) => col.primaryKey())
    .addColumn('docs', 'integer', (col) => col.notNull())
    .execute();
  // The typo step asks for the words of one first letter and a length range.
  await sql`create index post_search_words_first_idx on post_search_words (left(word, 1), length(word))`.execute(db);
  // One statement per row change: the words added (+1) and removed (-1) summed per word and
  // upserted in word order, so concurrent writes lock the rows they share in the same order and
  // cannot deadlock (separate UPDATE and INSERT steps could: each locked in its own order). A
  // word no post holds any more stays with docs = 0 (the typo step skips it).
  await sql`create function post_search_words_sync() returns trigger language plpgsql as $$
    declare
      added tsvector := ''::tsvector;
      removed tsvector := ''::tsvector;
    begin
      if tg_op in ('INSERT', 'UPDATE') then added := new.document; end if;
      if tg_op in ('UPDATE', 'DELETE') then removed := old.document; end if;
      insert into post_search_words as w (word, docs)
        select word, sum(delta)::integer from (
          select unnest(tsvector_to_array(added)) as word, 1 as delta
          union all
          select unnest(tsvector_to_array(removed)), -1
        ) changes
        group by word having sum(delta) <> 0
        order by word
        on conflict (word) do update set docs = w.docs + excluded.docs;
      return null;
    end $$`.execute(db);
  await sql`create trigger post_search_words_sync after insert or delete or update of document on post_search
    for each row execute function post_search_words_sync()`.execute(db);
  await sql`insert into post_search_words (word, docs)
    select word, ndoc from ts_stat('select document from post_search')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop trigger post_search_words_sync on post_search`.execute(db);
  await sql`drop function post_search_words_sync()`.execute(db);
  await db.schema.dropTable('post_search_words').execute();
  await sql`create or replace function post_search_sync() returns trigger language plpgsql as $$
    begin
      insert into post_search (post_id, document)
        values (new.id, post_search_document(new.title, new.description, new.body))
        on conflict (post_id) do update set document = excluded.document;
      return null;
    end $$`.execute(db);
  await sql`alter table post_search drop column created_at`.execute(db);
  await sql`drop index posts_title_key_idx`.execute(db);
  await sql`drop function post_title_key(text)`.execute(db);
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
