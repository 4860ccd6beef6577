import type { DatabaseConnection, Driver, QueryCompiler, TransactionSettings } from 'kysely';
import { readsFromReplica } from './read-routing';

/**
 * One Kysely driver over two: the primary's and a read replica's. Each connection is taken from the
 * replica only when the caller runs inside readFromReplica (read-routing.ts), otherwise from the
 * primary, and every later call about that connection (transaction, release) goes back to the
 * driver it came from. Both speak the same dialect, so a query — a PreparedQuery's SQL included —
 * is the same text on either.
 */
export class ReadReplicaDriver implements Driver {
  /** A connection object stands for one pooled client, which belongs to one pool for life. */
  private readonly owners = new WeakMap<DatabaseConnection, Driver>();

  constructor(
    private readonly primary: Driver,
    private readonly replica: Driver,
  ) {}

  async init(): Promise<void> {
    await Promise.all([this.primary.init(), this.replica.init()]);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const driver = readsFromReplica() ? this.replica : this.primary;
    const connection = await driver.acquireConnection();
    this.owners.set(connection, driver);
    return connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.ownerOf(connection).beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.ownerOf(connection).commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.ownerOf(connection).rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepoints(connection).savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.savepoints(connection).rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    return this.savepoints(connection).releaseSavepoint!(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.ownerOf(connection).releaseConnection(connection);
  }

  async destroy(): Promise<void> {
    await Promise.all([this.primary.destroy(), this.replica.destroy()]);
  }

  private ownerOf(connection: DatabaseConnection): Driver {
    const driver = this.owners.get(connection);
    if (!driver) throw new Error('This connection was not acquired through the read-replica driver');
    return driver;
  }

  private savepoints(connection: DatabaseConnection): Driver {
    const driver = this.ownerOf(connection);
    if (!driver.savepoint || !driver.rollbackToSavepoint || !driver.releaseSavepoint) {
      throw new Error('The database driver does not support savepoints');
    }
    return driver;
  }
}
