import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type PageRoutesOptions, registerPageRoutes } from '../pages/pages.routes';
import type { PagesService } from '../pages/pages.service';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TechIt</title></head>
<body><h1>TechIt</h1><p>The web app is not built yet. Run <code>npm run build</code> and restart, or use the API at
<a href="/api/docs">/api/docs</a>.</p></body></html>`;

/** Paths the web app never owns: an unknown one there is a 404, not the app's index page. */
function isServerPath(url: string): boolean {
  return /^\/(api|uploads)(\/|$|\?)/.test(url);
}

/**
 * A path whose last segment names a file (`/favicon.ico`, `/sitemap.xml`, `/wp-login.php`): the
 * app's routes never do (their ids are hex, their names plain words), so one the build does not
 * hold is a 404, not the app's page answering 200 for every probe and every missing file.
 */
function isFilePath(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0];
  return /\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf('/') + 1));
}

/** index.html as it is on disk now, re-read only when a new build replaces it. */
function indexPage(indexFile: string): PageRoutesOptions['page'] {
  let read: { html: string; version: string } | null = null;
  return () => {
    if (!existsSync(indexFile)) return { html: NOT_BUILT_PAGE, version: 'not built' };
    const version = String(statSync(indexFile).mtimeMs);
    if (read?.version !== version) read = { html: readFileSync(indexFile, 'utf8'), version };
    return read;
  };
}

/**
 * Serves the built web app: hashed files under /assets are cached for good, everything else
 * (index.html first) is revalidated, and any other GET falls back to index.html so client-side
 * routes like /search survive a reload. The pages that have something to show without the app
 * (a post, a profile, a tag, the notices, the home page's head) are server-rendered into it by
 * the pages module (docs/decisions/044-server-rendered-pages.md).
 */
export async function registerWebApp(
  fastify: FastifyInstance,
  distDir: string,
  pages: { service: PagesService } & Omit<PageRoutesOptions, 'page'>,
): Promise<void> {
  const indexFile = join(distDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await fastify.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (response, filePath) => {
        const immutable = filePath.startsWith(join(distDir, 'assets'));
        void response.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const fallback = async (request: { url: string; method: string }, reply: FastifyReply) => {
    if (isServerPath(request.url)) {
      return reply.code(404).send({ error: `There is no ${request.method} ${request.url.split('?')[0]}` });
    }
    if (isFilePath(request.url)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    reply.header('Cache-Control', 'no-cache');
    if (!built) return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    return reply.sendFile('index.html', distDir);
  };
  registerPageRoutes(fastify, pages.service, { ...pages, page: indexPage(indexFile) });
  fastify.get('/*', fallback);
}
