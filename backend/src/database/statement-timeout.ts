import { type Kysely, sql } from 'kysely';

/** PostgreSQL's query_canceled: the statement outlasted statement_timeout (or was cancelled by an operator). */
const QUERY_CANCELED = '57014';

/**
 * True for a statement PostgreSQL cancelled. The request is answered 503 (try again), not 500: the
 * statement was rolled back whole, nothing is half-done, and the cause is load or a lock held
 * elsewhere rather than a bug in the request.
 */
export function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === QUERY_CANCELED;
}

/**
 * Runs `work` on one connection of `db` with no statement timeout: a migration may rebuild an index
 * over millions of rows, far longer than any request may take. The connection goes back to the
 * pool with the timeout it was opened with (RESET returns to the connection's start-up value).
 */
export function withoutStatementTimeout<DB, T>(
  db: Kysely<DB>,
  work: (connection: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`set statement_timeout = 0`.execute(connection);
    let result: T;
    try {
      result = await work(connection);
    } catch (error) {
      // The migration's own error is the one to report, not a failed reset on a broken connection.
      await sql`reset statement_timeout`.execute(connection).catch(() => undefined);
      throw error;
    }
    await sql`reset statement_timeout`.execute(connection);
    return result;
  });
}
