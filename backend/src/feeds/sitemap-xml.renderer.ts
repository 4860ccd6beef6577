import type { SitemapUrl } from './feed-model';
import { xmlText } from './xml-text';

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** The sitemap index (sitemaps.org): one <sitemap> per page of URLs. */
export function renderSitemapIndex(pages: string[]): string {
  const entries = pages.map((loc) => `<sitemap><loc>${xmlText(loc)}</loc></sitemap>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<sitemapindex xmlns="${SITEMAP_NS}">`,
    ...entries,
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** One page of a sitemap: at most the page size of <url>s, each with its lastmod (W3C datetime). */
export function renderUrlSet(urls: SitemapUrl[]): string {
  const entries = urls.map(
    (url) => `<url><loc>${xmlText(url.loc)}</loc><lastmod>${new Date(url.lastmod).toISOString()}</lastmod></url>`,
  );
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<urlset xmlns="${SITEMAP_NS}">`, ...entries, '</urlset>', ''].join(
    '\n',
  );
}
