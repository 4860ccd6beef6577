import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

/**
 * Moderation (issue 20, docs/decisions/047-moderation.md).
 *
 * - `removed_at` / `removed_by` on posts, comments and notices: content a moderator removed stays
 *   in place (its author and the moderators still read it) but leaves every list for others.
 * - `users.suspended_until`: null when not suspended; a far-future time for "indefinitely".
 * - `reports`: one row per report. A reporter holds at most one OPEN report of a target (a partial
 *   unique index), so a second report is a no-op. The queue groups by (status, target).
 * - `moderation_actions`: the public moderation log, newest first.
 * - Search: a removed post leaves the index. The triggers of migration 2026-11-26T00-30-00 are
 *   replaced by ones that index a post only while `removed_at` is null (SQLite), and the
 *   PostgreSQL sync function deletes the post's document once it is removed.
 *
 * Roles: the stored member role stays 'user' (the wire value clients already compare against);
 * 'moderator' is new. Nothing to migrate.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['posts', 'comments', 'notices']) {
    await db.schema.alterTable(table).addColumn('removed_at', 'text').execute();
    await db.schema.alterTable(table).addColumn('removed_by', 'text').execute();
  }
  await db.schema.alterTable('users').addColumn('suspended_until', 'text').execute();
  // The removed posts alone (few): where a tag page asks "is this post removed?" per post_tags row,
  // PostgreSQL plans an anti-join against them, which this index answers without reading posts.
  await db.schema
    .createIndex('posts_removed_idx')
    .on('posts')
    .column('id')
    .where(sql.ref('removed_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('reporter_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('open'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('resolved_at', 'text')
    .execute();
  // A second open report of one target by one reporter changes nothing (ON CONFLICT DO NOTHING).
  await db.schema
    .createIndex('reports_open_reporter_key')
    .on('reports')
    .columns(['reporter_id', 'target_kind', 'target_id'])
    .unique()
    .where(sql.ref('status'), '=', 'open')
    .execute();
  // The queue: one status's reports grouped by target; resolving: one target's open reports.
  await db.schema
    .createIndex('reports_status_target_idx')
    .on('reports')
    .columns(['status', 'target_kind', 'target_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('moderation_actions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('moderator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_kind', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('moderation_actions_created_idx')
    .on('moderation_actions')
    .columns(['created_at', 'id'])
    .execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const trigger of ['posts_fts_insert', 'posts_fts_delete', 'posts_fts_update']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
    await sql`create trigger posts_fts_insert after insert on posts when new.removed_at is null begin
      insert into posts_fts (rowid, title, description, body) values (new.rowid, new.title, new.description, new.body);
    end`.execute(db);
    await sql`create trigger posts_fts_delete after delete on posts when old.removed_at is null begin
      insert into posts_fts (posts_fts, rowid, title, description, body)
        values ('delete', old.rowid, old.title, old.description, old.body);
    end`.execute(db);
    // Only when the text or the removal changes: a like or comment must not touch the index.
    await sql`create trigger posts_fts_update after update of title, description, body, removed_at on posts begin
      insert into posts_fts (posts_fts, rowid, title, description, body)
        select 'delete', old.rowid, old.title, old.description, old.body where old.removed_at is null;
      insert into posts_fts (rowid, title, description, body)
        select new.rowid, new.title, new.description, new.body where new.removed_at is null;
    end`.execute(db);
    return;
  }
  await sql`create or replace function post_search_sync() returns trigger language plpgsql as $$
    begin
      if new.removed_at is not null then
        delete from post_search where post_id = new.id;
        return null;
      end if;
      insert into post_search (post_id, document, created_at)
        values (new.id, post_search_document(new.title, new.description, new.body), new.created_at)
        on conflict (post_id) do update set document = excluded.document, created_at = excluded.created_at;
      return null;
    end $$`.execute(db);
  await sql`drop trigger post_search_sync on posts`.execute(db);
  await sql`create trigger post_search_sync after insert or update of title, description, body, removed_at on posts
    for each row execute function post_search_sync()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const trigger of ['posts_fts_insert', 'posts_fts_delete', 'posts_fts_update']) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
    await sql`create trigger posts_fts_insert after insert on posts begin
      insert into posts_fts (rowid, title, description, body) values (new.rowid, new.title, new.description, new.body);
    end`.execute(db);
    await sql`create trigger posts_fts_delete after delete on posts begin
      insert into posts_fts (posts_fts, rowid, title, description, body)
        values ('delete', old.rowid, old.title, old.description, old.body);
    end`.execute(db);
    await sql`create trigger posts_fts_update after update of title, description, body on posts begin
      insert into posts_fts (posts_fts, rowid, title, description, body)
        values ('delete', old.rowid, old.title, old.description, old.body);
      insert into posts_fts (rowid, title, description, body) values (new.rowid, new.title, new.description, new.body);
    end`.execute(db);
    await sql`insert into posts_fts (posts_fts) values ('rebuild')`.execute(db);
  } else {
    await sql`drop trigger post_search_sync on posts`.execute(db);
    await sql`create trigger post_search_sync after insert or update of title, description, body on posts
      for each row execute function post_search_sync()`.execute(db);
    await sql`create or replace function post_search_sync() returns trigger language plpgsql as $$
      begin
        insert into post_search (post_id, document, created_at)
          values (new.id, post_search_document(new.title, new.description, new.body), new.created_at)
          on conflict (post_id) do update set document = excluded.document, created_at = excluded.created_at;
        return null;
      end $$`.execute(db);
  }
  await db.schema.dropIndex('posts_removed_idx').execute();
  await db.schema.dropTable('moderation_actions').execute();
  await db.schema.dropTable('reports').execute();
  await db.schema.alterTable('users').dropColumn('suspended_until').execute();
  for (const table of ['posts', 'comments', 'notices']) {
    await db.schema.alterTable(table).dropColumn('removed_by').execute();
    await db.schema.alterTable(table).dropColumn('removed_at').execute();
  }
}
