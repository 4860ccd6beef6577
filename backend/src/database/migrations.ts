import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';
import type { Dialect } from './database.types';
import { withSqliteMigrationLock } from './sqlite-migration-lock';
import { withoutStatementTimeout } from './statement-timeout';
import * as initialSchema from './migrations/2026-11-21T06-00-00-initial-schema';
import * as likesWithoutRowid from './migrations/2026-11-21T12-00-00-likes-without-rowid';
import * as usersTokenVersion from './migrations/2026-11-21T12-10-00-users-token-version';
import * as imageReferenceIndexes from './migrations/2026-11-21T12-30-00-image-reference-indexes';
import * as appSettings from './migrations/2026-11-25T20-00-00-app-settings';
import * as idempotencyKeys from './migrations/2026-11-25T20-10-00-idempotency-keys';
import * as drafts from './migrations/2026-11-25T22-00-00-drafts';
import * as postRevisions from './migrations/2026-11-25T22-10-00-post-revisions';
import * as storedHtml from './migrations/2026-11-25T23-00-00-stored-html';
import * as tags from './migrations/2026-11-26T00-10-00-tags';
import * as hotScore from './migrations/2026-11-26T00-20-00-hot-score';
import * as postSearch from './migrations/2026-11-26T00-30-00-post-search';
import * as postSearchSpeed from './migrations/2026-11-26T03-30-00-post-search-speed';
import * as commentThreads from './migrations/2026-11-26T06-00-00-comment-threads';
import * as notifications from './migrations/2026-11-26T06-10-00-notifications';
import * as likeGroupIds from './migrations/2026-11-26T09-00-00-like-group-ids';
import * as bookmarks from './migrations/2026-11-27T06-00-00-bookmarks';
import * as moderation from './migrations/2026-11-28T06-00-00-moderation';
import * as blocksMutes from './migrations/2026-11-28T06-10-00-blocks-mutes';
import * as account from './migrations/2026-11-28T06-20-00-account';
import * as passwordResets from './migrations/2026-11-28T06-30-00-password-resets';
import * as postTitleKey from './migrations/2026-11-29T06-00-00-post-title-key';

/**
 * The migrations, listed by hand so the build needs no file-system scanning. Names are
 * timestamps: append new ones at the end, never rename or edit a landed one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T06-00-00-initial-schema': initialSchema,
  '2026-11-21T12-00-00-likes-without-rowid': likesWithoutRowid,
  '2026-11-21T12-10-00-users-token-version': usersTokenVersion,
  '2026-11-21T12-30-00-image-reference-indexes': imageReferenceIndexes,
  '2026-11-25T20-00-00-app-settings': appSettings,
  '2026-11-25T20-10-00-idempotency-keys': idempotencyKeys,
  '2026-11-25T22-00-00-drafts': drafts,
  '2026-11-25T22-10-00-post-revisions': postRevisions,
  '2026-11-25T23-00-00-stored-html': storedHtml,
  '2026-11-26T00-10-00-tags': tags,
  '2026-11-26T00-20-00-hot-score': hotScore,
  '2026-11-26T00-30-00-post-search': postSearch,
  '2026-11-26T03-30-00-post-search-speed': postSearchSpeed,
  '2026-11-26T06-00-00-comment-threads': commentThreads,
  '2026-11-26T06-10-00-notifications': notifications,
  '2026-11-26T09-00-00-like-group-ids': likeGroupIds,
  '2026-11-27T06-00-00-bookmarks': bookmarks,
  '2026-11-28T06-00-00-moderation': moderation,
  '2026-11-28T06-10-00-blocks-mutes': blocksMutes,
  '2026-11-28T06-20-00-account': account,
  '2026-11-28T06-30-00-password-resets': passwordResets,
  '2026-11-29T06-00-00-post-title-key': postTitleKey,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/** Every migration this build knows, oldest first (a backup records the newest it holds). */
export function migrationNames(): string[] {
  return Object.keys(MIGRATIONS).sort();
}

/**
 * Instances starting together migrate once: on PostgreSQL Kysely's Migrator holds an advisory
 * lock while it migrates (the others wait, then find nothing pending); on SQLite it takes none,
 * so a lock file beside the database does (sqlite-migration-lock.ts).
 */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  if (dialect === 'sqlite') return withSqliteMigrationLock(db, () => runMigrator(db, dialect));
  // Without DATABASE_STATEMENT_TIMEOUT_MS: an index build over a big table, or waiting for the
  // instance that holds the lock, takes longer than any request may.
  return withoutStatementTimeout(db, (connection) => runMigrator(connection, dialect));
}

async function runMigrator(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema it can see; pin them to the schema
  // the connection works in (search_path), so two TechIt databases in one PostgreSQL database
  // never share migration state.
  const schema = dialect === 'postgres' ? await currentSchema(db) : undefined;
  const { error, results } = await new Migrator({
    db: schema ? withIntrospectionOf(db, schema) : db,
    provider,
    migrationTableSchema: schema,
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('The PostgreSQL connection has no current schema; check search_path');
  return schema;
}

/**
 * The Migrator asks whether its tables exist through `db.introspection.getTables()`, whose
 * PostgreSQL query reads every schema of the database and calls has_schema_privilege() on each: a
 * schema dropped by someone else meanwhile (another TechIt database in the same PostgreSQL
 * database going away; the test suites do this all the time) fails our start with "schema … does
 * not exist". Here the question is put to our own schema alone.
 */
function withIntrospectionOf(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection = new OwnSchemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      // Kysely keeps its state in private fields: its methods must run on the real instance.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The tables (names only: all the Migrator reads) of one schema. */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {}

  getSchemas(): Promise<SchemaMetadata[]> {
    return Promise.resolve([{ name: this.schema }]);
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${this.schema} and c.relkind in ('r', 'p')`.execute(this.db);
    return rows.map(({ name }) => ({ name, schema: this.schema, isView: false, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
