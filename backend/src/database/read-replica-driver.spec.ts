import type { DatabaseConnection, Driver } from 'kysely';
import { ReadReplicaDriver } from './read-replica-driver';
import { onPrimary, readFromReplica } from './read-routing';

/** A driver that hands out one connection and records every call made about it. */
function fakeDriver(name: string, calls: string[]): { driver: Driver; connection: DatabaseConnection } {
  const connection: DatabaseConnection = {
    executeQuery: () => Promise.resolve({ rows: [] }),
    streamQuery: () => {
      throw new Error('not used');
    },
  };
  const record = (call: string) => () => {
    calls.push(`${name}.${call}`);
    return Promise.resolve();
  };
  const driver: Driver = {
    init: record('init'),
    acquireConnection: () => {
      calls.push(`${name}.acquire`);
      return Promise.resolve(connection);
    },
    beginTransaction: record('begin'),
    commitTransaction: record('commit'),
    rollbackTransaction: record('rollback'),
    savepoint: record('savepoint'),
    rollbackToSavepoint: record('rollbackToSavepoint'),
    releaseSavepoint: record('releaseSavepoint'),
    releaseConnection: record('release'),
    destroy: record('destroy'),
  };
  return { driver, connection };
}

describe('ReadReplicaDriver', () => {
  let calls: string[];
  let routing: ReadReplicaDriver;
  let primaryConnection: DatabaseConnection;
  let replicaConnection: DatabaseConnection;

  beforeEach(() => {
    calls = [];
    const primary = fakeDriver('primary', calls);
    const replica = fakeDriver('replica', calls);
    primaryConnection = primary.connection;
    replicaConnection = replica.connection;
    routing = new ReadReplicaDriver(primary.driver, replica.driver);
  });

  it('takes connections from the primary outside readFromReplica', async () => {
    expect(await routing.acquireConnection()).toBe(primaryConnection);
    expect(calls).toEqual(['primary.acquire']);
  });

  it('takes connections from the replica inside readFromReplica, across awaits', async () => {
    const connection = await readFromReplica(async () => {
      await Promise.resolve();
      return routing.acquireConnection();
    });
    expect(connection).toBe(replicaConnection);
    expect(calls).toEqual(['replica.acquire']);
  });

  it('goes back to the primary inside onPrimary, even within readFromReplica', async () => {
    const connection = await readFromReplica(() => onPrimary(() => routing.acquireConnection()));
    expect(connection).toBe(primaryConnection);
  });

  it("sends a connection's transaction, savepoint and release calls to the driver it came from", async () => {
    const fromReplica = await readFromReplica(() => routing.acquireConnection());
    const fromPrimary = await routing.acquireConnection();
    calls.length = 0;
    const compile = () => {
      throw new Error('not used');
    };
    // Called outside any context on purpose: the connection, not the caller's context, decides.
    await routing.beginTransaction(fromReplica, {});
    await routing.savepoint(fromReplica, 'a', compile);
    await routing.rollbackToSavepoint(fromReplica, 'a', compile);
    await routing.releaseSavepoint(fromReplica, 'a', compile);
    await routing.commitTransaction(fromReplica);
    await routing.releaseConnection(fromReplica);
    await readFromReplica(async () => {
      await routing.beginTransaction(fromPrimary, {});
      await routing.rollbackTransaction(fromPrimary);
      await routing.releaseConnection(fromPrimary);
    });
    expect(calls).toEqual([
      'replica.begin',
      'replica.savepoint',
      'replica.rollbackToSavepoint',
      'replica.releaseSavepoint',
      'replica.commit',
      'replica.release',
      'primary.begin',
      'primary.rollback',
      'primary.release',
    ]);
  });

  it('starts and closes both pools', async () => {
    await routing.init();
    await routing.destroy();
    expect(calls.sort()).toEqual(['primary.destroy', 'primary.init', 'replica.destroy', 'replica.init']);
  });
});
