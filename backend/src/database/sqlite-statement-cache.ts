import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely prepares every statement afresh, and preparing (parsing and planning the SQL) cost more
 * than running the query itself on the feed's hot path (docs/performance.md). The app issues a
 * few dozen distinct SQL texts — parameters are bound, never inlined — so a small LRU of prepared
 * statements hits almost always. A statement is only ever used by one query at a time: Kysely's
 * SQLite driver runs one query at a time on its single connection, to completion (`all`/`run`).
 */
export function withStatementCache(database: SqliteHandle, capacity = 500): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): Statement {
      const cached = statements.get(sql);
      if (cached) {
        // Map keeps insertion order: re-inserting marks it most recently used.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}
