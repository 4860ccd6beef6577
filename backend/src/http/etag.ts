import { createHash } from 'node:crypto';

/**
 * The one validator of every reply the server tags (the API's JSON, the pages, the feeds and
 * sitemaps): weak, since compression changes the bytes and not the meaning, and the hash of the
 * body, so it is right by construction.
 */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** If-None-Match compares weakly (RFC 9110 13.1.2): W/"x" matches "x", and * matches anything. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}
