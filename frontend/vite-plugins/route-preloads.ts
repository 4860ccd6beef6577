import { DEFAULT_FEED } from '../../contract/src/enums';
import { PAGINATION, STORAGE_KEYS } from '../../contract/src/limits';
import type { Plugin, Rollup } from 'vite';

interface RoutePreload {
  /** The address pattern, matched against location.pathname; its groups fill `$1` in `api`. */
  path: RegExp;
  /** The module router.tsx lazily loads for it. */
  module: string;
  /**
   * The first requests the page makes for a visitor (the same URLs as features/…/api build): with
   * no token they are the same for everyone, so they can start with the page. A signed-in
   * viewer's replies carry their own likes, so theirs start with the route's loader instead.
   */
  api?: string[];
}

/** The pages worth starting early. The build fails if a module stops being a chunk of its own. */
const ROUTES: RoutePreload[] = [
  {
    path: /^\/$/,
    module: 'src/app/routes/home.tsx',
    api: [`/api/posts?feed=${DEFAULT_FEED}&limit=${PAGINATION.feedPageSize}`, '/api/top-posts'],
  },
  { path: /^\/posts\/([0-9a-f]{24})$/, module: 'src/app/routes/post-detail.tsx', api: ['/api/posts/$1'] },
  {
    path: /^\/profile\/([0-9a-f]{24})$/,
    module: 'src/app/routes/profile.tsx',
    api: ['/api/user/$1', `/api/userposts/$1?limit=${PAGINATION.feedPageSize}`],
  },
  { path: /^\/notices$/, module: 'src/app/routes/notices.tsx' },
];

/** A chunk's file and every chunk and style sheet it imports statically, as URLs. */
export function staticClosure(
  bundle: Rollup.OutputBundle,
  chunk: Rollup.OutputChunk,
  into = new Set<string>(),
): Set<string> {
  if (into.has(`/${chunk.fileName}`)) return into;
  into.add(`/${chunk.fileName}`);
  for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(`/${css}`);
  for (const imported of chunk.imports) {
    const next = bundle[imported];
    if (next?.type === 'chunk') staticClosure(bundle, next, into);
  }
  return into;
}

/** Runs in <head>: preloads the current page's chunks, and a visitor's first API replies. */
function preloadScript(table: [string, string[], string[]][]): string {
  return `(function () {
  var routes = ${JSON.stringify(table)};
  function preload(href, rel, as) {
    var link = document.createElement('link');
    link.rel = rel;
    if (as) link.as = as;
    link.crossOrigin = as === 'fetch' ? 'anonymous' : '';
    link.href = href;
    document.head.appendChild(link);
  }
  for (var i = 0; i < routes.length; i++) {
    var match = new RegExp(routes[i][0]).exec(location.pathname);
    if (!match) continue;
    routes[i][1].forEach(function (url) {
      if (/\\.css$/.test(url)) preload(url, 'preload', 'style');
      else preload(url, 'modulepreload');
    });
    var visitor = true;
    try { visitor = !localStorage.getItem(${JSON.stringify(STORAGE_KEYS.token)}); } catch (e) {}
    // Only the page's default view (no ?feed= or ?tab=), which is what these URLs are.
    if (visitor && !location.search) {
      routes[i][2].forEach(function (url) {
        preload(url.replace(/\\$(\\d)/g, function (_, n) { return match[n]; }), 'preload', 'fetch');
      });
    }
    break;
  }
})();`;
}

/**
 * The browser learns which page it is on only once the app's code has run, and only then asks for
 * that page's chunk and data: round trips before anything shows. A few lines in index.html look
 * at the address first and start them alongside the app's own code.
 */
export function routePreloads(): Plugin {
  return {
    name: 'techit-route-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk: entry }) {
        if (!bundle || !entry) throw new Error('techit-route-preloads: no bundle to read the chunks from');
        const shell = staticClosure(bundle, entry);
        const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
        const table = ROUTES.map(({ path, module, api }): [string, string[], string[]] => {
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(`/${module}`));
          if (!chunk) throw new Error(`techit-route-preloads: no chunk for ${module}; update ROUTES`);
          return [path.source, [...staticClosure(bundle, chunk)].filter((url) => !shell.has(url)), api ?? []];
        });
        // Before the app's own tags: a script after a style sheet would wait for it to load.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('techit-route-preloads: no module script in index.html');
        return `${html.slice(0, at)}<script>${preloadScript(table)}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}
