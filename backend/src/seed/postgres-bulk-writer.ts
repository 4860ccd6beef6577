import { Client } from 'pg';
import {
  type BulkWriter,
  COLUMNS,
  columnType,
  type FullRow,
  type TableName,
  TABLES_CHILDREN_FIRST,
  TABLES_TO_RESET,
} from './bulk-writer';

/**
 * One connection, one transaction, and one INSERT … SELECT FROM unnest(…) per chunk: each column
 * travels as a single array parameter, so a chunk of thousands of rows is one round trip and one
 * statement, without COPY (which would need another dependency).
 */
export class PostgresBulkWriter implements BulkWriter {
  readonly dialect = 'postgres';
  private readonly client: Client;
  private connected = false;
  private deferredIndexes: { name: string; definition: string }[] = [];
  private deferredForeignKeys: { table: string; name: string; definition: string }[] = [];

  constructor(databaseUrl: string) {
    this.client = new Client({ connectionString: databaseUrl });
  }

  async countPosts(): Promise<number> {
    await this.connect();
    const result = await this.client.query<{ count: string }>(
      'SELECT count(*) AS count FROM (SELECT 1 FROM posts LIMIT 1) AS any_post',
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  async reset(): Promise<void> {
    await this.connect();
    // One statement naming every table that references another, so no CASCADE reaches beyond them;
    // post_search (the search index, PostgreSQL only: decision 034) references posts too, and
    // post_search_words counts its words (a TRUNCATE fires no row trigger).
    await this.client.query(`TRUNCATE ${['post_search_words', 'post_search', ...TABLES_TO_RESET].join(', ')}`);
  }

  async begin(): Promise<void> {
    await this.connect();
    await this.client.query('BEGIN');
    // Durability at COMMIT is what makes a big load wait on the disk; a failed seed is rerun.
    await this.client.query('SET LOCAL synchronous_commit = off');
    // As on SQLite: non-unique secondary indexes are rebuilt once after the load, inside the
    // transaction (a failed load restores them), and read from the catalog, so indexes added by
    // later migrations come back too.
    const result = await this.client.query<{ name: string; definition: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
        WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)
          AND NOT x.indisunique AND NOT x.indisprimary`,
      [TABLES_CHILDREN_FIRST],
    );
    this.deferredIndexes = result.rows;
    // The search index's word counts are one upsert per word of every post when kept row by row:
    // counted once at the end instead (commit).
    await this.client.query('ALTER TABLE post_search DISABLE TRIGGER post_search_words_sync');
    for (const index of this.deferredIndexes) await this.client.query(`DROP INDEX "${index.name}"`);
    // Foreign keys likewise: checked row by row they cost more than the insert itself; added back
    // at the end, PostgreSQL validates each with one join over the finished tables.
    const keys = await this.client.query<{ table: string; name: string; definition: string }>(
      `SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
         FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid
        WHERE c.contype = 'f' AND t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)`,
      [TABLES_CHILDREN_FIRST],
    );
    this.deferredForeignKeys = keys.rows;
    for (const key of this.deferredForeignKeys) {
      await this.client.query(`ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.name}"`);
    }
  }

  async insert<T extends TableName>(table: T, rows: FullRow<T>[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = COLUMNS[table];
    const arrays = columns.map((column) => rows.map((row) => row[column]));
    const types = columns.map((column, index) => `$${index + 1}::${columnType(table, column)}[]`);
    await this.client.query(
      `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.join(', ')})`,
      arrays,
    );
  }

  async commit(): Promise<void> {
    // Building an index sorts in memory up to this budget instead of spilling to disk.
    await this.client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const index of this.deferredIndexes) await this.client.query(index.definition);
    await this.client.query('ALTER TABLE post_search ENABLE TRIGGER post_search_words_sync');
    await this.client.query('DELETE FROM post_search_words');
    await this.client.query(
      `INSERT INTO post_search_words (word, docs) SELECT word, ndoc FROM ts_stat('SELECT document FROM post_search')`,
    );
    for (const key of this.deferredForeignKeys) {
      await this.client.query(`ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" ${key.definition}`);
    }
    await this.client.query('COMMIT');
  }

  async rollback(): Promise<void> {
    if (this.connected) await this.client.query('ROLLBACK');
  }

  async analyze(): Promise<void> {
    await this.connect();
    await this.client.query(`ANALYZE ${TABLES_CHILDREN_FIRST.join(', ')}`);
  }

  async close(): Promise<void> {
    if (this.connected) await this.client.end();
  }

  private async connect(): Promise<void> {
    if (this.connected) return;
    await this.client.connect();
    this.connected = true;
  }
}
