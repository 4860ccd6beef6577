import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which database the work in progress reads from, carried with the async context instead of being
 * passed to every repository: repositories keep asking for "the database", and the driver
 * (read-replica-driver.ts) picks the replica only inside readFromReplica. Everything outside it —
 * writes, signed-in requests, migrations, timers, CLIs — goes to the primary, so the default is
 * the safe one. See docs/decisions/009-read-replica-for-visitors.md.
 */
const replicaReads = new AsyncLocalStorage<true>();

/** Runs `work` (and everything it starts) with its queries on the read replica, when there is one. */
export function readFromReplica<T>(work: () => T): T {
  return replicaReads.run(true, work);
}

/** Runs `work` with its queries on the primary, even inside readFromReplica. */
export function onPrimary<T>(work: () => T): T {
  return replicaReads.exit(work);
}

export function readsFromReplica(): boolean {
  return replicaReads.getStore() === true;
}
