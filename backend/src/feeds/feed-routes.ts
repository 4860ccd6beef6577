import { RequestMethod } from '@nestjs/common';
import { type FeedFormat, feedPath } from '@techit/contract/feed-paths';

const PARAM = '__param__';

/**
 * A feed's route pattern, made by the contract's feedPath (so the server answers exactly the
 * addresses pages and the web app link to), with the tag's or user's segment as a route param.
 */
export function feedRoute(kind: 'latest' | 'hot' | 'tag' | 'user', format: FeedFormat): string {
  if (kind === 'tag') return feedPath({ kind, name: PARAM }, format).replace(PARAM, ':name');
  if (kind === 'user') return feedPath({ kind, id: PARAM }, format).replace(PARAM, ':id');
  return feedPath({ kind }, format);
}

export const ROBOTS_ROUTE = '/robots.txt';
export const SITEMAP_INDEX_ROUTE = '/sitemap.xml';
export const SITEMAP_PAGE_ROUTE = '/sitemap/:file';

/**
 * Every route of the feeds controller. They live at the site's root, not under /api: app-factory
 * leaves them out of the global prefix. Being more specific than the web app's `/*`, they win over
 * its fallback (which answers other *.xml and *.txt with a 404).
 */
export const FEED_ROOT_ROUTES = [
  ...(['latest', 'hot', 'tag', 'user'] as const).flatMap((kind) =>
    (['rss', 'atom'] as const).map((format) => feedRoute(kind, format)),
  ),
  ROBOTS_ROUTE,
  SITEMAP_INDEX_ROUTE,
  SITEMAP_PAGE_ROUTE,
].map((path) => ({ path, method: RequestMethod.GET }));
