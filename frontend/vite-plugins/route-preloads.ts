import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Plugin, type ResolvedConfig, type Rollup, runnerImport } from 'vite';
import { IMAGE_SIZES, IMAGE_VARIANT_SUFFIX, imageVariant } from '../../contract/src/image-variants';
import { STORAGE_KEYS } from '../../contract/src/limits';
import { TAG_PATTERN } from '../../contract/src/tag-rules';
import type { FirstPicture } from '../src/app/first-requests';
import { listPicturePost } from '../../contract/src/list-picture';
import { PARAM_PATTERNS, type RouteDefinition, type RouteName, routePattern, routes } from '../src/config/routes';

/** A route's `:param` names, in the order of routePattern's capture groups. */
function paramNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((match) => match[1]);
}

/**
 * What the build passes for the n-th param when it asks app/first-requests.ts for a screen's paths:
 * a value every kind of param accepts (an ObjectId-format id is also a valid tag name), so
 * encodeURIComponent leaves it as it is, then replaced by `$n`, which the boot script fills with
 * the address's own value.
 */
const placeholder = (index: number): string => `ffffffffffffffffffffff${String(index).padStart(2, '0')}`;

/**
 * The build stops if config/routes.ts's copy of a param's pattern no longer says what the rule it
 * copies says (it imports nothing, so it cannot use the contract's), or if the placeholder would
 * not be a value of every kind.
 */
function checkParamPatterns(): void {
  if (`(${TAG_PATTERN.source.replace(/^\^|\$$/g, '')})` !== PARAM_PATTERNS.tag) {
    throw new Error(
      `techit-route-preloads: PARAM_PATTERNS.tag is ${PARAM_PATTERNS.tag}, TAG_PATTERN is ${TAG_PATTERN}`,
    );
  }
  for (const [kind, pattern] of Object.entries(PARAM_PATTERNS)) {
    if (!new RegExp(`^${pattern}$`).test(placeholder(0))) {
      throw new Error(`techit-route-preloads: the placeholder ${placeholder(0)} is not a ${kind}`);
    }
  }
}

/**
 * app/first-requests.ts, loaded the way the app compiles it (its imports use the app's aliases),
 * then turned into the boot script's URL templates: `/api/posts/$1`.
 */
async function firstRequestTemplates(
  config: ResolvedConfig,
): Promise<Partial<Record<RouteName, { api: string[]; picture: FirstPicture | null }>>> {
  // Typed per route in the app; here each screen is given every param its route declares.
  type Loose = Partial<
    Record<RouteName, { paths: (params: Record<string, string>) => string[]; picture?: FirstPicture }>
  >;
  const { module } = await runnerImport<{ firstRequests: Loose }>(join(config.root, 'src/app/first-requests.ts'), {
    configFile: false,
    logLevel: 'error',
    resolve: { alias: config.resolve.alias },
  });
  const templates: Partial<Record<RouteName, { api: string[]; picture: FirstPicture | null }>> = {};
  for (const [name, first] of Object.entries(module.firstRequests) as [RouteName, Loose[RouteName]][]) {
    if (!first) continue;
    const names = paramNames(routes[name].path);
    const params = Object.fromEntries(names.map((param, index) => [param, placeholder(index)]));
    const paths = first.paths(params);
    templates[name] = {
      api: paths.map((path) =>
        names.reduce((url, _param, index) => url.replaceAll(placeholder(index), `$${index + 1}`), `/api${path}`),
      ),
      picture: first.picture ?? null,
    };
  }
  return templates;
}

/**
 * The global the boot script leaves its replies in, by URL, for features/…/api to take
 * (lib/boot-replies.ts reads the same name).
 */
export const BOOT_REPLIES_GLOBAL = '__techitBootReplies';

/**
 * imageVariant (contract/src/image-variants.ts) for the card and full variants, small enough to
 * travel in the boot script; checked against the real one at every build (checkPictureUrl).
 */
function pictureUrl(url: string, suffix: string, cloudinary: string | null): string {
  const local = /^(\/uploads\/[0-9a-f]{24}-[1-9][0-9]{0,3}x[1-9][0-9]{0,3})\.webp$/.exec(url);
  if (local) return local[1] + suffix;
  const remote = /^(https?:\/\/res\.cloudinary\.com\/[^/?#]+\/image\/upload\/)([^?#]+)$/.exec(url);
  if (remote && cloudinary) return remote[1] + cloudinary + '/' + remote[2];
  return url;
}

const PICTURE_VARIANTS = {
  card: [IMAGE_VARIANT_SUFFIX.card, `c_limit,w_${IMAGE_SIZES.cardMaxWidth}`],
  full: [IMAGE_VARIANT_SUFFIX.full, null],
} as const;

/** The build stops if the boot script's copy no longer names the file the page will show. */
function checkPictureUrl(): void {
  const samples = [
    '/uploads/6b0186796b201b03e58aa5a7-1080x1080.webp',
    '/uploads/6b0186796b201b03e58aa5a7-300x200.webp',
    '/uploads/default-avatar.svg',
    'https://res.cloudinary.com/demo/image/upload/v1/techit/6b0186796b201b03e58aa5a7-1600x900.webp',
    'https://res.cloudinary.com/demo/image/upload/v1/techit/older.jpg',
    'https://example.com/picture.png',
  ];
  for (const sample of samples) {
    for (const [variant, [suffix, cloudinary]] of Object.entries(PICTURE_VARIANTS)) {
      const expected = imageVariant(sample, variant as keyof typeof PICTURE_VARIANTS).src;
      const actual = pictureUrl(sample, suffix, cloudinary);
      if (actual !== expected) {
        throw new Error(`techit-route-preloads: pictureUrl(${sample}, ${variant}) is ${actual}, not ${expected}`);
      }
    }
  }
}

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

type RouteEntry = [
  path: string,
  chunks: string[],
  api: string[],
  picture: [number, 'list' | 'post', string, string | null] | null,
];

/**
 * Runs in <head>: a visitor's first API replies, then the page's chunks (on HTTP/1.1 a browser
 * opens six connections to a host; the replies, which the page's picture depends on, go first).
 * The replies are fetched rather than preloaded so that this script can read them: once the one
 * naming the page's picture arrives, the picture starts downloading too, while the app's code is
 * still on its way. The app takes the replies from BOOT_REPLIES_GLOBAL instead of asking again.
 */
function preloadScript(table: RouteEntry[]): string {
  return `(function () {
  var routes = ${JSON.stringify(table)};
  var pictureUrl = ${pictureUrl.toString()};
  var listPicturePost = ${listPicturePost.toString()};
  function preload(href, rel, as, priority) {
    var link = document.createElement('link');
    link.rel = rel;
    if (as) link.as = as;
    if (priority) link.fetchPriority = priority;
    link.crossOrigin = as === 'image' ? null : '';
    link.href = href;
    document.head.appendChild(link);
  }
  for (var i = 0; i < routes.length; i++) {
    var match = new RegExp(routes[i][0], 'i').exec(location.pathname);
    if (!match) continue;
    var visitor = true;
    try { visitor = !localStorage.getItem(${JSON.stringify(STORAGE_KEYS.token)}); } catch (e) {}
    // Only the page's default view (no ?feed= or ?tab=), which is what these URLs are.
    if (visitor && !location.search && routes[i][2].length) {
      var replies = (window[${JSON.stringify(BOOT_REPLIES_GLOBAL)}] = {});
      routes[i][2].forEach(function (url) {
        url = url.replace(/\\$(\\d)/g, function (_, n) { return match[n]; });
        replies[url] = fetch(url, { headers: { Accept: 'application/json' } })
          .then(function (response) { return response.ok ? response.json() : null; })
          .catch(function () { return null; });
      });
      var picture = routes[i][3];
      if (picture) {
        replies[Object.keys(replies)[picture[0]]].then(function (reply) {
          var post = reply && (picture[1] === 'post' ? reply.post : listPicturePost(reply.posts || reply.userPosts));
          if (post && post.photo) preload(pictureUrl(post.photo, picture[2], picture[3]), 'preload', 'image', 'high');
        });
      }
    }
    routes[i][1].forEach(function (url) {
      if (/\\.css$/.test(url)) preload(url, 'preload', 'style');
      else preload(url, 'modulepreload');
    });
    break;
  }
})();`;
}

/**
 * The browser learns which page it is on only once the app's code has run, and only then asks for
 * that page's chunk and data: round trips before anything shows. A few lines in index.html look
 * at the address first and start them alongside the app's own code, for the routes that
 * config/routes.ts marks `preload`.
 */
export function routePreloads(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'techit-route-preloads',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      // The router loads each page by its file name (import.meta.glob): a name without a file
      // would only fail in the browser.
      for (const [name, route] of Object.entries(routes) as [string, RouteDefinition][]) {
        if (!existsSync(join(config.root, 'src/app/routes', `${route.page}.tsx`))) {
          this.error(`config/routes.ts: ${name} names src/app/routes/${route.page}.tsx, which does not exist`);
        }
      }
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, { bundle, chunk: entry }) {
        if (!bundle || !entry) throw new Error('techit-route-preloads: no bundle to read the chunks from');
        const shell = staticClosure(bundle, entry);
        const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
        checkPictureUrl();
        checkParamPatterns();
        const first = await firstRequestTemplates(config);
        const preloaded = (Object.keys(routes) as RouteName[]).filter(
          (name) => (routes[name] as RouteDefinition).preload === true,
        );
        const table = preloaded.map((name): RouteEntry => {
          const route: RouteDefinition = routes[name];
          const { page } = route;
          const module = `src/app/routes/${page}.tsx`;
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(`/${module}`));
          if (!chunk) throw new Error(`techit-route-preloads: no chunk of its own for ${module}`);
          const picture = first[name]?.picture;
          return [
            routePattern(route),
            [...staticClosure(bundle, chunk)].filter((url) => !shell.has(url)),
            first[name]?.api ?? [],
            picture ? [picture.request, picture.from, ...PICTURE_VARIANTS[picture.variant]] : null,
          ];
        });
        for (const name of Object.keys(first) as RouteName[]) {
          if (!preloaded.includes(name))
            throw new Error(`techit-route-preloads: ${name} has first requests but no preload`);
        }
        // Before the app's own tags: a script after a style sheet would wait for it to load.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('techit-route-preloads: no module script in index.html');
        return `${html.slice(0, at)}<script>${preloadScript(table)}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}
