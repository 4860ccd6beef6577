/**
 * The addresses of the site's feed files (issue 19). The server's routes, the pages'
 * `<link rel="alternate">` autodiscovery and the web app's feed icons are all made from these, so
 * a link can never point at a feed the server does not answer.
 */

export type FeedFormat = 'rss' | 'atom';

/** RSS 2.0 files end in .xml, Atom 1.0 files in .atom. */
export const FEED_EXTENSIONS: Readonly<Record<FeedFormat, string>> = { rss: 'xml', atom: 'atom' };

export const FEED_MEDIA_TYPES: Readonly<Record<FeedFormat, string>> = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
};

/** What a feed lists: the latest posts, the hot feed, one tag's posts or one user's posts. */
export type FeedSource =
  { kind: 'latest' } | { kind: 'hot' } | { kind: 'tag'; name: string } | { kind: 'user'; id: string };

export function feedPath(source: FeedSource, format: FeedFormat): string {
  const ext = FEED_EXTENSIONS[format];
  switch (source.kind) {
    case 'latest':
      return `/feed.${ext}`;
    case 'hot':
      return `/feed/hot.${ext}`;
    case 'tag':
      return `/t/${encodeURIComponent(source.name)}/feed.${ext}`;
    case 'user':
      return `/profile/${encodeURIComponent(source.id)}/feed.${ext}`;
  }
}
