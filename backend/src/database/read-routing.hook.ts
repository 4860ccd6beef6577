import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readFromReplica } from './read-routing';

/**
 * With a read replica, a visitor's read (GET or HEAD without an Authorization header) runs its
 * queries there; everything else stays on the primary. Every write needs a token, so whoever has
 * written anything sends one from then on and reads from the primary: a user always reads their
 * own writes, and only a visitor can see a write late, by the replica's lag
 * (docs/decisions/009-read-replica-for-visitors.md).
 *
 * The choice is made before anything else of the request runs, and the rest of the request —
 * hooks, guards, the handler — runs inside it (the same way @fastify/request-context carries its
 * store). Without a replica nothing is registered.
 */
export function registerReadRouting(fastify: FastifyInstance, replicaConfigured: boolean): void {
  if (!replicaConfigured) return;
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (isVisitorRead(request)) readFromReplica(done);
    else done();
  });
}

export function isVisitorRead(request: Pick<FastifyRequest, 'method' | 'headers'>): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.headers.authorization === undefined;
}
