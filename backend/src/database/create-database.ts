import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { type Driver, Kysely, type KyselyConfig, PostgresDialect, PostgresDriver, SqliteDialect } from 'kysely';
import { Pool } from 'pg';
import type { Database, Dialect } from './database.types';
import { ReadReplicaDriver } from './read-replica-driver';
import { SqliteCheckpointer } from './sqlite-checkpointer';
import { withStatementCache } from './sqlite-statement-cache';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL only, like the settings below: visitors' GETs read here (read-routing.ts). */
  databaseReadUrl?: string | null;
  /** Each pool's most connections (default 10). */
  databasePoolSize?: number;
  /**
   * Cancel a statement after this long; 0 or unset: no limit. Only the server sets it (from
   * DATABASE_STATEMENT_TIMEOUT_MS): the CLIs' bulk loads and counter rebuilds may rightly take longer.
   */
  statementTimeoutMs?: number;
  /** Close a pooled connection idle this long; 0: never (default 10 s). */
  databaseIdleTimeoutMs?: number;
  /**
   * SQLite only: checkpoint the WAL from a worker thread (sqlite-checkpointer.ts) instead of inside
   * the commits of the app's requests. The server sets it; the CLIs, which write in bulk and close
   * soon, do not.
   */
  backgroundCheckpoints?: boolean;
}

/**
 * Sees every SQL statement the app runs, with its bound values (the query-count tests use it to
 * catch N+1 queries, the query-plan test to EXPLAIN exactly what the app ran).
 */
export type QueryObserver = (sql: string, parameters: readonly unknown[]) => void;

export const SQLITE_FILE = 'techit.sqlite';

export function createDatabase(options: DatabaseOptions, onQuery?: QueryObserver): DatabaseHandle {
  const log: KyselyConfig['log'] = onQuery
    ? (event) => {
        if (event.level === 'query') onQuery(event.query.sql, event.query.parameters);
      }
    : undefined;
  if (options.databaseUrl) {
    const primary = postgresPool(options.databaseUrl, options);
    const readUrl = options.databaseReadUrl;
    const dialect = readUrl
      ? new ReplicaRoutingDialect(primary, postgresPool(readUrl, options))
      : new PostgresDialect({ pool: primary });
    return { db: new Kysely<Database>({ dialect, log }), dialect: 'postgres' };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(join(options.dataDir, SQLITE_FILE));
  // WAL lets readers run beside the writer; NORMAL is durable across application crashes in WAL
  // mode; foreign keys make deletes cascade the same way PostgreSQL does.
  enableWal(sqlite);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 16 MB of page cache instead of SQLite's 2 MB: the hot end of the indexes and the newest rows
  // stay in memory (a feed query 96 -> 65 µs on 100k posts). 32 MB measured no faster (visitors'
  // repeated reads come from the read cache) and took the server past its 300 MB RSS budget.
  sqlite.pragma('cache_size = -16384');
  const database = withStatementCache(sqlite);
  if (options.backgroundCheckpoints) {
    // The backstop, should the checkpointing thread fall behind or fail: 10,000 pages is a 40 MB
    // WAL, where SQLite's default (1,000) would still checkpoint in a request every few seconds.
    sqlite.pragma('wal_autocheckpoint = 10000');
    const checkpointer = SqliteCheckpointer.start(join(options.dataDir, SQLITE_FILE));
    const close = database.close.bind(database);
    database.close = () => {
      checkpointer.stop();
      return close();
    };
  }
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }), log }), dialect: 'sqlite' };
}

function postgresPool(connectionString: string, options: DatabaseOptions): Pool {
  const pool = new Pool({
    connectionString,
    max: options.databasePoolSize ?? 10,
    idleTimeoutMillis: options.databaseIdleTimeoutMs ?? 10_000,
    // Sent with each connection's start-up, so it costs no statement per query; PostgreSQL cancels
    // a statement that outlasts it (error 57014, answered 503 by the exception filter). 0 sends none.
    statement_timeout: options.statementTimeoutMs || undefined,
  });
  // An idle client whose server went away (a restart, a failover) is dropped by the pool, which
  // then emits 'error'; unheard, that event would end the process. The next query opens a new one.
  pool.on('error', () => undefined);
  return pool;
}

/** PostgreSQL whose connections come from the replica inside readFromReplica, otherwise from the primary. */
class ReplicaRoutingDialect extends PostgresDialect {
  constructor(
    primary: Pool,
    private readonly replica: Pool,
  ) {
    super({ pool: primary });
  }

  override createDriver(): Driver {
    return new ReadReplicaDriver(super.createDriver(), new PostgresDriver({ pool: this.replica }));
  }
}

/**
 * `journal_mode = WAL`, retried while another process holds the file. Instances starting together
 * on a new database all switch it at once; the switch needs the file to itself, and SQLite answers
 * one of them SQLITE_BUSY at once instead of waiting (so as not to deadlock) — a CI run lost an
 * instance of the migration-lock test to it. Start-up is synchronous here, so the wait is too.
 */
function enableWal(sqlite: SQLite.Database, patienceMs = 10_000): void {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}
