import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, weakEtag } from '../http/etag';
import { publicOrigin } from '../http/public-origin';
import type { ReadCache } from '../http/read-cache';
import { PageTemplate } from './page-template';
import { type PageParts, renderHead } from './page-renderer';
import type { PagesService } from './pages.service';

export interface PageRoutesOptions {
  /** The page every app path answers (the built index.html) and a version that changes with it. */
  page: () => { html: string; version: string };
  /** The visitors' read cache: a page is kept like an API read and let go by the same writes. */
  cache: ReadCache | null;
  /** PUBLIC_URL's origin; null: the request's own protocol and Host (as TRUST_PROXY allows). */
  publicUrl: string | null;
}

/** Hashed image files: cached for good, like /assets and /uploads. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const HTML = 'text/html; charset=utf-8';
const CARD_FILE = /^([A-Za-z0-9_-]{16})\.png$/;

/**
 * The HTML GETs of the pages that have something to show before the app runs (link previews,
 * crawlers, readers without JavaScript, the first paint): /, /posts/:id, /profile/:id, /t/:name
 * and /notices, and the generated card images. HTTP only: what a page shows comes from
 * PagesService, its markup from page-renderer. Every other app path keeps the plain index.html.
 */
export function registerPageRoutes(fastify: FastifyInstance, pages: PagesService, options: PageRoutesOptions): void {
  let parsed: { version: string; template: PageTemplate } | null = null;
  const template = () => {
    const { html, version } = options.page();
    if (parsed?.version !== version) parsed = { version, template: PageTemplate.parse(html) };
    return parsed;
  };
  const originOf = (request: FastifyRequest) => publicOrigin(request, options.publicUrl);
  const cache = options.cache?.enabled ? options.cache : null;

  const page =
    (build: (params: Record<string, string>) => PageParts | Promise<PageParts>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const origin = originOf(request);
      const { version, template: shell } = template();
      // By path: a query string changes nothing on these pages (the canonical link has none).
      const key = `page ${version} ${origin}${request.url.split('?', 1)[0]}`;
      void reply.header('Cache-Control', 'no-cache').type(HTML);
      const hit = cache?.get(key);
      if (hit) return sendPage(request, reply, hit.body, hit.etag);
      const builtAt = cache?.version ?? 0;
      const parts = await build(request.params as Record<string, string>);
      const body = Buffer.from(shell.render(renderHead(parts.meta, origin), parts.content));
      if (parts.status !== 200) return reply.code(parts.status).send(body);
      const etag = weakEtag(body);
      cache?.set(key, { body, etag, contentType: HTML }, builtAt);
      return sendPage(request, reply, body, etag);
    };

  fastify.get(
    '/',
    page(() => pages.home()),
  );
  fastify.get(
    '/posts/:id',
    page(({ id }) => pages.post(id)),
  );
  fastify.get(
    '/profile/:id',
    page(({ id }) => pages.profile(id)),
  );
  fastify.get(
    '/t/:name',
    page(({ name }) => pages.tag(name)),
  );
  fastify.get(
    '/notices',
    page(() => pages.noticesPage()),
  );

  fastify.get('/cards/posts/:id/:file', async (request: FastifyRequest, reply: FastifyReply) => {
    const { id, file } = request.params as { id: string; file: string };
    const version = CARD_FILE.exec(file)?.[1];
    const card = version ? await pages.card(id, version) : ({ kind: 'missing' } as const);
    if (card.kind === 'missing') return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    if (card.kind === 'moved') return reply.header('Cache-Control', 'no-cache').redirect(card.path, 301);
    return reply.header('Cache-Control', IMMUTABLE).type('image/png').send(card.body);
  });
}

function sendPage(request: FastifyRequest, reply: FastifyReply, body: Buffer, etag: string) {
  void reply.header('ETag', etag);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(body);
}
