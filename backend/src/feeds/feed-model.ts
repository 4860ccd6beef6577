/** A feed as the renderers draw it, in either format; every link absolute. */
export interface FeedDocument {
  title: string;
  description: string;
  /** The page the feed mirrors (the site, a tag's page, a profile). */
  pageUrl: string;
  /** This file's own address (atom:link rel="self", Atom's id). */
  selfUrl: string;
  /** The newest entry's change, or the epoch for a feed with none (ISO 8601). */
  updated: string;
  entries: FeedEntry[];
}

export interface FeedEntry {
  title: string;
  /** The post's page: also the entry's id/guid, which never changes for a post. */
  url: string;
  author: { name: string; url: string };
  published: string;
  updated: string;
  tags: string[];
  /** Sanitised HTML (the post's rendered body, else its description), sent as escaped text. */
  html: string;
}

/** One <url> of a sitemap page. */
export interface SitemapUrl {
  loc: string;
  lastmod: string;
}
