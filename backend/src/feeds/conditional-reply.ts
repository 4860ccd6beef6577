import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, weakEtag } from '../http/etag';

export interface ConditionalBody {
  body: string;
  contentType: string;
  /** ISO 8601: the newest change the body shows; absent: no Last-Modified. */
  lastModified?: string | null;
  cacheControl: string;
}

/**
 * Sends a file of the site's root (feed, sitemap, robots.txt) with validators: a weak ETag, the
 * hash of the text (compression changes the bytes, not the meaning), and Last-Modified when the
 * body has a newest change. 304 without a body when If-None-Match matches, or, when the request
 * sends no If-None-Match (which decides when present, RFC 9110 13.2.2), when If-Modified-Since is
 * not before Last-Modified. (The API's JSON gets its ETags from http/conditional-get.ts, which
 * only looks at /api.)
 */
export function sendConditional(request: FastifyRequest, reply: FastifyReply, file: ConditionalBody): FastifyReply {
  const etag = weakEtag(file.body);
  reply.header('ETag', etag).header('Cache-Control', file.cacheControl);
  const lastModified = file.lastModified ? new Date(file.lastModified) : null;
  if (lastModified) reply.header('Last-Modified', lastModified.toUTCString());
  const ifNoneMatch = request.headers['if-none-match'];
  const notModified =
    ifNoneMatch !== undefined
      ? etagMatches(ifNoneMatch, etag)
      : lastModified !== null && notModifiedSince(request.headers['if-modified-since'], lastModified);
  if (notModified) return reply.code(304).send();
  return reply.type(file.contentType).send(file.body);
}

/** HTTP dates have whole seconds: a change within the second of the header's date counts as seen. */
function notModifiedSince(header: string | undefined, lastModified: Date): boolean {
  if (!header) return false;
  const since = Date.parse(header);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}
