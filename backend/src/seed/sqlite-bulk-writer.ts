import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { SQLITE_FILE } from '../database/create-database';
import {
  type BulkWriter,
  COLUMNS,
  type FullRow,
  type TableName,
  TABLES_CHILDREN_FIRST,
  TABLES_TO_RESET,
} from './bulk-writer';

/**
 * Its own better-sqlite3 connection on the app's file: one transaction and one prepared
 * statement per table, the fastest load SQLite offers short of writing pages by hand.
 */
export class SqliteBulkWriter implements BulkWriter {
  readonly dialect = 'sqlite';
  private readonly sqlite: SQLite.Database;
  private readonly statements = new Map<TableName, SQLite.Statement>();
  private deferredIndexes: { name: string; sql: string }[] = [];

  constructor(dataDir: string) {
    this.sqlite = new SQLite(join(dataDir, SQLITE_FILE));
    this.sqlite.pragma('journal_mode = WAL');
    this.sqlite.pragma('busy_timeout = 5000');
    // This connection only: the generator builds consistent data, so checking every like's two
    // keys would only slow the load; and a crash mid-seed is answered by seeding again (--reset).
    this.sqlite.pragma('foreign_keys = OFF');
    this.sqlite.pragma('synchronous = OFF');
    this.sqlite.pragma('cache_size = -131072');
    this.sqlite.pragma('temp_store = MEMORY');
  }

  countPosts(): Promise<number> {
    const row = this.sqlite.prepare('SELECT count(*) AS count FROM (SELECT 1 FROM posts LIMIT 1)').get() as {
      count: number;
    };
    return Promise.resolve(row.count);
  }

  reset(): Promise<void> {
    this.sqlite.transaction(() => {
      for (const table of TABLES_TO_RESET) this.sqlite.exec(`DELETE FROM ${table}`);
    })();
    return Promise.resolve();
  }

  begin(): Promise<void> {
    this.sqlite.exec('BEGIN');
    // Secondary indexes are rebuilt once after the load: sorting a finished table is far cheaper
    // than a million random b-tree inserts. Inside the transaction, so a failed load restores
    // them; read from the schema, so indexes added by later migrations come back too. Unique ones
    // stay, to keep checking what they guard.
    this.deferredIndexes = this.sqlite
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
           AND sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN (${TABLES_CHILDREN_FIRST.map(() => '?').join(', ')})`,
      )
      .all(...TABLES_CHILDREN_FIRST) as { name: string; sql: string }[];
    for (const index of this.deferredIndexes) this.sqlite.exec(`DROP INDEX "${index.name}"`);
    return Promise.resolve();
  }

  insert<T extends TableName>(table: T, rows: FullRow<T>[]): Promise<void> {
    const columns = COLUMNS[table];
    const statement = this.statement(table);
    for (const row of rows) statement.run(columns.map((column) => row[column]));
    return Promise.resolve();
  }

  commit(): Promise<void> {
    for (const index of this.deferredIndexes) this.sqlite.exec(index.sql);
    this.sqlite.exec('COMMIT');
    // Fold the load back into the main file now rather than leave a WAL as large as the data.
    this.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return Promise.resolve();
  }

  rollback(): Promise<void> {
    if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
    return Promise.resolve();
  }

  analyze(): Promise<void> {
    this.sqlite.exec('ANALYZE');
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.sqlite.close();
    return Promise.resolve();
  }

  private statement(table: TableName): SQLite.Statement {
    let statement = this.statements.get(table);
    if (!statement) {
      const columns = COLUMNS[table];
      statement = this.sqlite.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      this.statements.set(table, statement);
    }
    return statement;
  }
}
