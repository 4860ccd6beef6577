import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, weakEtag } from './etag';

/**
 * ETag and 304 for the API's successful GETs. A reply is a pure function of the URL (the post
 * view, full or compact, is in it), the viewer (compact likes mark the viewer's own) and the data,
 * so hashing the body gives a validator that is right by construction: a client revalidating an
 * unchanged feed gets 304 and no body. `no-cache` makes
 * browsers revalidate every time (the data changes at any moment) and `Vary: Authorization` keeps
 * shared caches from serving one viewer's reply to another. Static files get their ETags from
 * @fastify/static; writes and errors never get one. Register before the read cache and compression.
 */
export function registerConditionalGet(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : null;
    if (!body || !isApiRead(request) || reply.statusCode !== 200) {
      done(null, payload);
      return;
    }
    // A reply from the read cache comes with the tag it was stored with. Weak: compression,
    // which runs next, changes the bytes but not the meaning.
    const known = reply.getHeader('etag');
    const etag = typeof known === 'string' ? known : weakEtag(body);
    reply.header('ETag', etag);
    reply.header('Cache-Control', 'no-cache');
    reply.header('Vary', 'Authorization');
    if (etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      done(null, '');
      return;
    }
    done(null, payload);
  });
}

function isApiRead(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.url.startsWith('/api/');
}
