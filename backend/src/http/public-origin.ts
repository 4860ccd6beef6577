import type { FastifyRequest } from 'fastify';

/**
 * The site's address as the reader reached it (`https://example.org`), for the absolute links a
 * page's head (canonical, og:url, og:image), a feed, robots.txt and a sitemap must carry: the one
 * place it is made. Fastify reads the scheme and the host from
 * X-Forwarded-Proto / X-Forwarded-Host only when the request came through a proxy TRUST_PROXY
 * trusts (as it does for HSTS and the rate limits' addresses), else from the connection and its
 * Host header. A configured public address (`configured`: PUBLIC_URL, without a trailing slash) wins: then
 * no header can change the links, and every reply (and the sitemaps kept in memory) is the same
 * whoever asks.
 */
export function publicOrigin(
  request: Pick<FastifyRequest, 'protocol' | 'host'>,
  configured: string | null = null,
): string {
  // A request without a Host (HTTP/1.0) still gets well-formed links.
  return configured ?? `${request.protocol}://${request.host || 'localhost'}`;
}
