/**
 * Every screen of the web app, once. Everything else that knows about routes is made from this
 * table: the links (config/paths.ts), the router (app/router.tsx), and at build time the boot
 * script's preloads (vite-plugins/route-preloads.ts) and the app shell's choice of page
 * (vite-plugins/app-shell.ts). Plain data with no imports, so the build can read it too.
 */
export interface RouteDefinition {
  /** react-router's pattern; each `:param` is an ObjectId-format id unless `params` says otherwise. */
  readonly path: string;
  /** The `:params` that are not ObjectId-format ids, by name, and what they are (PARAM_PATTERNS). */
  readonly params?: Readonly<Record<string, ParamKind>>;
  /** The file under src/app/routes whose default export renders it, loaded as a chunk of its own. */
  readonly page: string;
  /** 'app': inside the navigation bars (app/layout); 'bare': a screen of its own (log in, sign up). */
  readonly layout: 'app' | 'bare';
  /** Only for a signed-in user: a visitor is sent home (spec 5). */
  readonly session?: boolean;
  /**
   * The boot script starts the page's chunk (and, for a visitor, its first API replies: see
   * firstRequests in route-preloads.ts) from the first HTML, alongside the app's own code.
   */
  readonly preload?: boolean;
}

export const routes = {
  home: { path: '/', page: 'home', layout: 'app', preload: true },
  notices: { path: '/notices', page: 'notices', layout: 'app', preload: true },
  post: { path: '/posts/:postid', page: 'post-detail', layout: 'app', preload: true },
  editPost: { path: '/editpost/:postid', page: 'edit-post', layout: 'app' },
  postHistory: { path: '/posts/:postid/history', page: 'post-history', layout: 'app', session: true },
  profile: { path: '/profile/:userid', page: 'profile', layout: 'app', preload: true },
  tag: { path: '/t/:name', page: 'tag', layout: 'app', preload: true, params: { name: 'tag' } },
  createPost: { path: '/createpost', page: 'create', layout: 'app', session: true },
  search: { path: '/search', page: 'search', layout: 'app', preload: true },
  notifications: { path: '/notifications', page: 'notifications', layout: 'app', session: true, preload: true },
  bookmarks: { path: '/bookmarks', page: 'bookmarks', layout: 'app', session: true },
  settings: { path: '/settings', page: 'settings', layout: 'app', session: true },
  /** Moderators and admins; anyone else (visitors too) gets the not-found screen, so no `session`. */
  admin: { path: '/admin', page: 'admin', layout: 'app' },
  moderationLog: { path: '/moderation', page: 'moderation', layout: 'app' },
  login: { path: '/login', page: 'login', layout: 'bare' },
  signup: { path: '/signup', page: 'signup', layout: 'bare' },
  forgotPassword: { path: '/forgot-password', page: 'forgot-password', layout: 'bare' },
  resetPassword: { path: '/reset-password', page: 'reset-password', layout: 'bare' },
  notFound: { path: '*', page: 'not-found', layout: 'app' },
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

/** The names of a pattern's `:params`: '/posts/:postid' → 'postid'. */
export type RouteParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | RouteParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The address of a route, its params filled in. */
export function routeHref<Path extends string>(path: Path, params: Record<RouteParams<Path>, string>): string {
  const values: Record<string, string> = params;
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/**
 * What a `:param` matches in the patterns below: an ObjectId-format id (backend common/ids), or a
 * tag's name as contract/src/tag-rules.ts TAG_PATTERN has it (a copy: this file imports nothing;
 * the build checks the two agree, vite-plugins/route-preloads.ts). Matched case-insensitively, as
 * the tag page lower-cases the name it is given.
 */
export const PARAM_PATTERNS = {
  id: '([0-9a-f]{24})',
  tag: '([a-z0-9][a-z0-9-]{0,29})',
} as const;

export type ParamKind = keyof typeof PARAM_PATTERNS;

/**
 * A regular expression (its source, for the boot script) that matches an address
 * (location.pathname) where react-router would render the route: case-insensitive, a trailing
 * slash allowed. Each `:param` is a capture group, in order, matching its kind (`params`).
 */
export function routePattern(route: Pick<RouteDefinition, 'path' | 'params'>): string {
  const segments = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith(':')
        ? PARAM_PATTERNS[route.params?.[segment.slice(1)] ?? 'id']
        : segment.replace(/[.*+?^${}()|[\]\\/-]/g, (char) => `\\${char}`),
    );
  return segments.length === 0 ? '^\\/$' : `^\\/${segments.join('\\/')}\\/?$`;
}
