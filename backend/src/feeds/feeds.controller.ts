import { Controller, Get, Inject, Param, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type FeedFormat, type FeedSource, FEED_MEDIA_TYPES } from '@techit/contract/feed-paths';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../common/app-errors';
import { sendConditional } from './conditional-reply';
import { feedRoute, ROBOTS_ROUTE, SITEMAP_INDEX_ROUTE, SITEMAP_PAGE_ROUTE } from './feed-routes';
import { FeedsService } from './feeds.service';
import type { SitemapKind } from './feeds.repository';
import { PlainTextErrorFilter } from './plain-text-error.filter';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { publicOrigin } from '../http/public-origin';

/** Feed readers poll: five minutes in any cache, then a cheap revalidation (ETag, 304). */
const FEED_CACHE = 'public, max-age=300';
/** Crawlers read these seldom; the server keeps them for SITEMAP_CACHE_TTL_MS anyway. */
const SITEMAP_CACHE = 'public, max-age=600';
const XML = 'application/xml; charset=utf-8';

const SITEMAP_FILE = /^(posts|profiles|tags)-([1-9][0-9]{0,5})\.xml$/;

/**
 * RSS 2.0 and Atom 1.0 feeds, robots.txt and the sitemaps, at the site's root (not under /api;
 * see feed-routes.ts). Not in the API docs: they are files for feed readers and crawlers.
 */
@ApiExcludeController()
@UseFilters(PlainTextErrorFilter)
@Controller()
export class FeedsController {
  constructor(
    private readonly feeds: FeedsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(feedRoute('latest', 'rss'))
  latestRss(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'latest' }, 'rss', request, reply);
  }

  @Get(feedRoute('latest', 'atom'))
  latestAtom(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'latest' }, 'atom', request, reply);
  }

  @Get(feedRoute('hot', 'rss'))
  hotRss(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'hot' }, 'rss', request, reply);
  }

  @Get(feedRoute('hot', 'atom'))
  hotAtom(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'hot' }, 'atom', request, reply);
  }

  @Get(feedRoute('tag', 'rss'))
  tagRss(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'tag', name }, 'rss', request, reply);
  }

  @Get(feedRoute('tag', 'atom'))
  tagAtom(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'tag', name }, 'atom', request, reply);
  }

  @Get(feedRoute('user', 'rss'))
  userRss(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'user', id }, 'rss', request, reply);
  }

  @Get(feedRoute('user', 'atom'))
  userAtom(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.feed({ kind: 'user', id }, 'atom', request, reply);
  }

  @Get(ROBOTS_ROUTE)
  robots(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const body = this.feeds.robots(this.origin(request));
    return sendConditional(request, reply, {
      body,
      contentType: 'text/plain; charset=utf-8',
      cacheControl: SITEMAP_CACHE,
    });
  }

  @Get(SITEMAP_INDEX_ROUTE)
  async sitemapIndex(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const body = await this.feeds.sitemapIndex(this.origin(request));
    return sendConditional(request, reply, { body, contentType: XML, cacheControl: SITEMAP_CACHE });
  }

  @Get(SITEMAP_PAGE_ROUTE)
  async sitemapPage(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const match = SITEMAP_FILE.exec(file);
    if (!match) throw new NotFoundError('There is no such sitemap');
    const body = await this.feeds.sitemapPage(match[1] as SitemapKind, Number(match[2]), this.origin(request));
    return sendConditional(request, reply, { body, contentType: XML, cacheControl: SITEMAP_CACHE });
  }

  /** Every absolute link's origin: PUBLIC_URL when set, else the request's. */
  private origin(request: FastifyRequest): string {
    return publicOrigin(request, this.config.publicUrl);
  }

  private async feed(source: FeedSource, format: FeedFormat, request: FastifyRequest, reply: FastifyReply) {
    const { xml, lastModified } = await this.feeds.feed(source, format, this.origin(request));
    return sendConditional(request, reply, {
      body: xml,
      contentType: `${FEED_MEDIA_TYPES[format]}; charset=utf-8`,
      lastModified,
      cacheControl: FEED_CACHE,
    });
  }
}
