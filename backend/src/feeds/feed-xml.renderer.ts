import type { FeedDocument } from './feed-model';
import { xmlText } from './xml-text';

const GENERATOR = 'TechIt';

/** RSS 2.0: dates in RFC 822 form (`Thu, 26 Nov 2026 08:40:00 GMT`), authors as dc:creator (RSS's own <author> is an email address). */
export function renderRss(feed: FeedDocument): string {
  const items = feed.entries.map((entry) =>
    [
      '<item>',
      `<title>${xmlText(entry.title)}</title>`,
      `<link>${xmlText(entry.url)}</link>`,
      `<guid isPermaLink="true">${xmlText(entry.url)}</guid>`,
      `<pubDate>${rfc822(entry.published)}</pubDate>`,
      `<dc:creator>${xmlText(entry.author.name)}</dc:creator>`,
      ...entry.tags.map((tag) => `<category>${xmlText(tag)}</category>`),
      `<description>${xmlText(entry.html)}</description>`,
      '</item>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${xmlText(feed.title)}</title>`,
    `<link>${xmlText(feed.pageUrl)}</link>`,
    `<description>${xmlText(feed.description)}</description>`,
    `<atom:link href="${xmlText(feed.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `<lastBuildDate>${rfc822(feed.updated)}</lastBuildDate>`,
    `<generator>${GENERATOR}</generator>`,
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** Atom 1.0 (RFC 4287): dates in RFC 3339 form, each entry's id its post's page. */
export function renderAtom(feed: FeedDocument): string {
  const entries = feed.entries.map((entry) =>
    [
      '<entry>',
      `<id>${xmlText(entry.url)}</id>`,
      `<title type="text">${xmlText(entry.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${xmlText(entry.url)}"/>`,
      `<published>${rfc3339(entry.published)}</published>`,
      `<updated>${rfc3339(entry.updated)}</updated>`,
      `<author><name>${xmlText(entry.author.name)}</name><uri>${xmlText(entry.author.url)}</uri></author>`,
      ...entry.tags.map((tag) => `<category term="${xmlText(tag)}"/>`),
      `<content type="html">${xmlText(entry.html)}</content>`,
      '</entry>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlText(feed.selfUrl)}</id>`,
    `<title type="text">${xmlText(feed.title)}</title>`,
    `<subtitle type="text">${xmlText(feed.description)}</subtitle>`,
    `<link rel="self" type="application/atom+xml" href="${xmlText(feed.selfUrl)}"/>`,
    `<link rel="alternate" type="text/html" href="${xmlText(feed.pageUrl)}"/>`,
    `<updated>${rfc3339(feed.updated)}</updated>`,
    `<generator>${GENERATOR}</generator>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/** RFC 822 / 1123 with a four-digit year, which RSS 2.0 readers expect. */
function rfc822(iso: string): string {
  return new Date(iso).toUTCString();
}

/** The stored ISO 8601 text normalised to UTC with milliseconds: a valid RFC 3339 date-time. */
function rfc3339(iso: string): string {
  return new Date(iso).toISOString();
}
