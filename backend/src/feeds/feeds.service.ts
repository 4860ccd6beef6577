import { Inject, Injectable } from '@nestjs/common';
import type { Post } from '@techit/contract/api-types';
import { type FeedFormat, type FeedSource, feedPath } from '@techit/contract/feed-paths';
import { OUTSIDE } from '@techit/contract/limits';
import { BadRequestError, NotFoundError } from '../common/app-errors';
import { parseObjectId } from '../common/object-id';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { storedHtml } from '../markdown/stored-html';
import { PostsService } from '../posts/posts.service';
import { TagsService } from '../tags/tags.service';
import { UsersService } from '../users/users.service';
import type { FeedDocument, FeedEntry } from './feed-model';
import { renderAtom, renderRss } from './feed-xml.renderer';
import { FeedsRepository, type SitemapKind } from './feeds.repository';
import { SitemapCache } from './sitemap-cache';
import { renderSitemapIndex, renderUrlSet } from './sitemap-xml.renderer';

const SITE_NAME = 'TechIt';
const NO_ENTRIES = new Date(0).toISOString();
export const SITEMAP_KINDS: readonly SitemapKind[] = ['posts', 'profiles', 'tags'];

/** The web app's pages a feed or sitemap links to (frontend/src/config/routes.ts). */
const pagePath = {
  post: (id: string) => `/posts/${id}`,
  profile: (id: string) => `/profile/${id}`,
  tag: (name: string) => `/t/${encodeURIComponent(name)}`,
};

/** The address of sitemap page `n` (from 1) of a list. */
export function sitemapPagePath(kind: SitemapKind, n: number): string {
  return `/sitemap/${kind}-${n}.xml`;
}
export const SITEMAP_INDEX_PATH = '/sitemap.xml';

/** Screens a crawler has no business in: the API, and the app's signed-in and form screens. */
const PRIVATE_PATHS = [
  '/api/',
  '/createpost',
  '/editpost/',
  '/posts/*/history',
  '/notifications',
  '/bookmarks',
  '/search',
  '/login',
  '/signup',
  // The reset link's page carries a secret in its query: never crawled.
  '/forgot-password',
  '/reset-password',
];

export interface RenderedFeed {
  xml: string;
  /** The newest entry's change; null for a feed without entries. */
  lastModified: string | null;
}

@Injectable()
export class FeedsService {
  private readonly sitemaps: SitemapCache;
  private readonly pageSize: number;

  constructor(
    private readonly posts: PostsService,
    private readonly users: UsersService,
    private readonly tags: TagsService,
    private readonly feeds: FeedsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sitemaps = new SitemapCache(config.sitemapCacheTtlMs);
    this.pageSize = config.sitemapPageSize;
  }

  /**
   * A feed file: the newest OUTSIDE.feedEntries posts of the source, each with its article, in a
   * fixed number of statements (the list's own, then one for the articles). An unknown or
   * malformed tag or user is a 404.
   */
  async feed(source: FeedSource, format: FeedFormat, origin: string): Promise<RenderedFeed> {
    const { title, description, page, posts } = await this.postsOf(source);
    const bodies = await this.feeds.bodiesOf(posts.map((post) => post._id));
    const entries = posts.map((post): FeedEntry => {
      const stored = bodies.get(post._id);
      const body = stored && stored.body !== '' ? storedHtml(stored.body_html, stored.body) : '';
      return {
        title: post.title,
        url: origin + pagePath.post(post._id),
        author: { name: post.postedBy.userName, url: origin + pagePath.profile(post.postedBy._id) },
        published: post.createdAt,
        updated: post.updatedAt,
        tags: post.tags,
        html: body || post.descHtml,
      };
    });
    const newest = entries.reduce<string | null>(
      (latest, entry) => (latest === null || Date.parse(entry.updated) > Date.parse(latest) ? entry.updated : latest),
      null,
    );
    const document: FeedDocument = {
      title,
      description,
      pageUrl: origin + page,
      selfUrl: origin + feedPath(source, format),
      updated: newest ?? NO_ENTRIES,
      entries,
    };
    return { xml: format === 'rss' ? renderRss(document) : renderAtom(document), lastModified: newest };
  }

  /**
   * The posts a feed lists, through the posts feature's own list reads, as a visitor sees them.
   * This is the one place a feed's posts are chosen: the posts feature's list reads, which leave
   * out the posts the moderators removed (moderation/removal-filters.ts, decision 047).
   */
  private async postsOf(
    source: FeedSource,
  ): Promise<{ title: string; description: string; page: string; posts: Post[] }> {
    const limit = OUTSIDE.feedEntries;
    switch (source.kind) {
      case 'latest': {
        const { posts } = await this.posts.feed({ feed: 'for-you', limit, view: 'compact' }, null);
        return {
          title: `${SITE_NAME}: latest posts`,
          description: `The newest posts on ${SITE_NAME}`,
          page: '/',
          posts,
        };
      }
      case 'hot': {
        const { posts } = await this.posts.feed({ feed: 'hot', limit, view: 'compact' }, null);
        return {
          title: `${SITE_NAME}: hot posts`,
          description: `The hottest posts on ${SITE_NAME} right now`,
          page: '/?feed=hot',
          posts,
        };
      }
      case 'tag': {
        const tag = await this.requireTag(source.name);
        const { posts } = await this.posts.feed({ feed: 'tag', tag, limit, view: 'compact' }, null);
        return {
          title: `${SITE_NAME}: #${tag}`,
          description: `The newest posts tagged #${tag} on ${SITE_NAME}`,
          page: pagePath.tag(tag),
          posts,
        };
      }
      case 'user': {
        const id = parseObjectId(source.id);
        if (!id) throw new NotFoundError("This user doesn't exist");
        const user = await this.users.getProfile(id);
        const { posts } = await this.posts.userPosts(id, { limit, view: 'compact' }, null);
        return {
          title: `${SITE_NAME}: ${user.userName}`,
          description: `The newest posts by ${user.userName} on ${SITE_NAME}`,
          page: pagePath.profile(id),
          posts,
        };
      }
    }
  }

  /** A tag somebody uses or follows; a name that is no tag, or one nobody ever used, is not found. */
  private async requireTag(raw: string): Promise<string> {
    try {
      const tag = await this.tags.get(raw, null);
      if (tag.postsCount > 0 || tag.followersCount > 0) return tag.name;
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
    }
    throw new NotFoundError(`There is no tag "${raw.slice(0, 40)}"`);
  }

  robots(origin: string): string {
    return [
      'User-agent: *',
      'Allow: /',
      ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
      '',
      `Sitemap: ${origin}${SITEMAP_INDEX_PATH}`,
      '',
    ].join('\n');
  }

  /** The sitemap index: every page of every list (a list without rows has none). */
  sitemapIndex(origin: string): Promise<string> {
    return this.sitemaps.file(`${origin}${SITEMAP_INDEX_PATH}`, async () => {
      const starts = await this.pageStarts();
      const pages = SITEMAP_KINDS.flatMap((kind) =>
        starts[kind].map((_, index) => origin + sitemapPagePath(kind, index + 1)),
      );
      return renderSitemapIndex(pages);
    });
  }

  /** Page `n` (from 1) of a list's sitemap; a page the index does not name is not found. */
  async sitemapPage(kind: SitemapKind, n: number, origin: string): Promise<string> {
    const starts = (await this.pageStarts())[kind];
    const start = starts[n - 1];
    if (!start) throw new NotFoundError('There is no such sitemap');
    return this.sitemaps.file(`${origin}${sitemapPagePath(kind, n)}`, async () => {
      const rows = await this.feeds.page(kind, start, starts[n] ?? null, this.pageSize);
      return renderUrlSet(rows.map((row) => ({ loc: origin + this.pageOf(kind, row.key), lastmod: row.lastmod })));
    });
  }

  private pageOf(kind: SitemapKind, key: readonly string[]): string {
    if (kind === 'posts') return pagePath.post(key[1]);
    if (kind === 'profiles') return pagePath.profile(key[0]);
    return pagePath.tag(key[0]);
  }

  private pageStarts() {
    return this.sitemaps.pageStarts(async () => {
      const [posts, profiles, tags] = await Promise.all(
        SITEMAP_KINDS.map((kind) => this.feeds.pageStarts(kind, this.pageSize)),
      );
      return { posts, profiles, tags };
    });
  }
}
