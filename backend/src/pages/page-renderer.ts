import type { Comment, Notice, Post, ProfileUser, Tag } from '@techit/contract/api-types';
import { FEED_MEDIA_TYPES, type FeedFormat, type FeedSource, feedPath } from '@techit/contract/feed-paths';
import { OUTSIDE } from '@techit/contract/limits';
import { isHttpUrl } from '@techit/contract/url-rules';
import { html, type SafeHtml, storedHtml } from './html';

/**
 * The server-rendered parts of the app's pages (docs/decisions/044-server-rendered-pages.md): the
 * head's title, description, canonical link, Open Graph, Twitter card and feed links, and the
 * readable content the React app replaces once it runs. Pure functions of what the services read:
 * every value goes through html`` (escaped) except the HTML the Markdown renderer stored.
 */

export const SITE_NAME = 'TechIt';
export const SITE_DESCRIPTION = 'TechIt: posts, notices and discussion for a technical community';

/** A description longer than this is cut at a word: previews show about this much. */
const DESCRIPTION_MAX = 200;

export interface PageImage {
  /** Absolute, or a path on this site (made absolute with the origin). */
  url: string;
  width?: number;
  height?: number;
  alt: string;
}

export interface PageMeta {
  /** The page's own title; the tab shows "<title> · TechIt" like the app's useDocumentTitle. null: the site's. */
  title: string | null;
  description: string;
  /** The canonical path on this site. */
  path: string;
  type: 'website' | 'article' | 'profile';
  image: PageImage | null;
  /** summary_large_image: a post's picture or its generated card; anything else is a small summary. */
  largeImage: boolean;
  article?: { publishedTime: string; modifiedTime: string | null; authorPath: string; tags: string[] };
  profileUserName?: string;
  /** The feeds this page names for autodiscovery (paths from contract/feed-paths). */
  feeds: { source: FeedSource; title: string }[];
  /** A not-found page: kept out of search indexes. */
  noIndex?: boolean;
  /**
   * The picture the content shows first, preloaded from the head: there it is the first request
   * after the page, ahead of the app's scripts that would otherwise hold the browser's six
   * connections to the site when the preload scanner reaches the <img> (decision 055).
   */
  preloadImage?: string;
}

export interface PageParts {
  status: 200 | 404;
  meta: PageMeta;
  content: SafeHtml;
}

const FEED_LABEL: Record<FeedFormat, string> = { rss: 'RSS', atom: 'Atom' };

export function postPath(id: string): string {
  return `/posts/${encodeURIComponent(id)}`;
}
export function profilePath(id: string): string {
  return `/profile/${encodeURIComponent(id)}`;
}
export function tagPath(name: string): string {
  return `/t/${encodeURIComponent(name)}`;
}

/** `path` on this site, or an absolute URL as it is. */
function absolute(origin: string, url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${origin}${url}` : url;
}

/** Plain text for a description: one line, cut at a word with an ellipsis when too long. */
export function summarise(text: string, fallback = SITE_DESCRIPTION): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return fallback;
  if (line.length <= DESCRIPTION_MAX) return line;
  const cut = line.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

function date(iso: string): SafeHtml {
  const parsed = new Date(iso);
  const shown = Number.isNaN(parsed.getTime()) ? iso : DATE_FORMAT.format(parsed);
  return html`<time datetime="${iso}">${shown}</time>`;
}

/** The head's tags for a page; they replace the built index.html's generic title and description. */
export function renderHead(meta: PageMeta, origin: string): SafeHtml {
  const title = meta.title === null ? SITE_NAME : `${meta.title} · ${SITE_NAME}`;
  const ogTitle = meta.title ?? SITE_NAME;
  const url = absolute(origin, meta.path);
  const image = meta.image ? { ...meta.image, url: absolute(origin, meta.image.url) } : null;
  const feeds = meta.feeds.flatMap(({ source, title: feedTitle }) =>
    (['rss', 'atom'] as const).map(
      (format) =>
        html`<link
          rel="alternate"
          type="${FEED_MEDIA_TYPES[format]}"
          title="${`${feedTitle} (${FEED_LABEL[format]})`}"
          href="${absolute(origin, feedPath(source, format))}"
        />`,
    ),
  );
  return html`<title>${title}</title>
    <meta name="description" content="${meta.description}" />
    ${meta.preloadImage ? html`<link rel="preload" as="image" href="${meta.preloadImage}" fetchpriority="high" />` : null}
    ${meta.noIndex ? html`<meta name="robots" content="noindex" />` : null}<link rel="canonical" href="${url}" />
    <meta property="og:site_name" content="${SITE_NAME}" />
    <meta property="og:title" content="${ogTitle}" />
    <meta property="og:description" content="${meta.description}" />
    <meta property="og:url" content="${url}" />
    <meta property="og:type" content="${meta.type}" />
    ${
      image
        ? html`<meta property="og:image" content="${image.url}" />
            ${image.width ? html`<meta property="og:image:width" content="${image.width}" />` : null}${image.height ? html`<meta property="og:image:height" content="${image.height}" />` : null}<meta
              property="og:image:alt"
              content="${image.alt}"
            /> `
        : null
    }${
      meta.article
        ? html`<meta property="article:published_time" content="${meta.article.publishedTime}" />
            ${meta.article.modifiedTime ? html`<meta property="article:modified_time" content="${meta.article.modifiedTime}" />` : null}<meta
              property="article:author"
              content="${absolute(origin, meta.article.authorPath)}"
            />
            ${meta.article.tags.map((tag) => html`<meta property="article:tag" content="${tag}" />`)}`
        : null
    }${meta.profileUserName ? html`<meta property="profile:username" content="${meta.profileUserName}" />` : null}
    <meta name="twitter:card" content="${meta.largeImage ? 'summary_large_image' : 'summary'}" />
    <meta name="twitter:title" content="${ogTitle}" />
    <meta name="twitter:description" content="${meta.description}" />
    ${image ? html`<meta name="twitter:image" content="${image.url}" /><meta name="twitter:image:alt" content="${image.alt}" />` : null}
    ${feeds}`;
}

function tagList(tags: string[]): SafeHtml | null {
  if (tags.length === 0) return null;
  return html`<ul class="server-page-tags">
    ${tags.map((tag) => html`<li><a href="${tagPath(tag)}">#${tag}</a></li>`)}
  </ul>`;
}

function byline(author: { _id: string; userName: string }, createdAt: string): SafeHtml {
  return author._id
    ? html`<p class="server-page-byline">
        <a href="${profilePath(author._id)}">${author.userName}</a> · ${date(createdAt)}
      </p>`
    : html`<p class="server-page-byline">${author.userName} · ${date(createdAt)}</p>`;
}

function commentItem(comment: Comment): SafeHtml {
  return html`<li class="server-page-comment">
    ${byline(comment.postedBy, comment.createdAt)}
    <div class="server-page-text">${storedHtml(comment.textHtml)}</div>
  </li>`;
}

/** How a list shows its posts: the heading level under the page's, and the picture it shows. */
interface PostListOptions {
  /** h3 under a page's own sections; h2 where the list is the page (home). */
  level?: 2 | 3;
  /** The one picture the list shows (the home feed's likely largest paint), fetched at once. */
  picture?: ListPicture | null;
}

/** A post in a list: its title as a link, author and date, tags, the list's picture if it is this post's, description. */
function postItem(post: Post, { level = 3, picture = null }: PostListOptions): SafeHtml {
  const title = html`<a href="${postPath(post._id)}">${post.title}</a>`;
  const photo =
    picture?.postId === post._id
      ? html`<img
          class="server-page-photo"
          src="${picture.src}"
          alt="${`Picture for the post “${post.title}”`}"
          ${picture.width && picture.height ? html`width="${picture.width}" height="${picture.height}"` : null}
          fetchpriority="high"
        />`
      : null;
  return html`<li class="server-page-item">
    ${level === 2 ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}
    ${byline(post.postedBy, post.createdAt)}${tagList(post.tags)}${photo}
    <div class="server-page-text">${storedHtml(post.descHtml)}</div>
  </li>`;
}

function postList(posts: Post[], empty: string, options: PostListOptions = {}): SafeHtml {
  return posts.length
    ? html`<ul class="plain-list server-page-list">
        ${posts.map((post) => postItem(post, options))}
      </ul>`
    : html`<p class="server-page-note">${empty}</p>`;
}

export function postPage(post: Post, image: PageImage): PageParts {
  const comments = post.comments.slice(0, OUTSIDE.pageComments);
  const more = post.commentsCount - comments.length;
  const photo = post.photo ? image : null;
  return {
    status: 200,
    meta: {
      title: post.title,
      description: summarise(post.desc),
      path: postPath(post._id),
      type: 'article',
      image,
      largeImage: true,
      article: {
        publishedTime: post.createdAt,
        modifiedTime: post.editedAt,
        authorPath: profilePath(post.postedBy._id),
        tags: post.tags,
      },
      feeds: [],
    },
    content: html`<article class="server-page">
      <h1 class="server-page-title">${post.title}</h1>
      ${byline(post.postedBy, post.createdAt)}${tagList(post.tags)}
      ${photo ? html`<img class="server-page-photo" src="${photo.url}" alt="${photo.alt}" ${photo.width ? html` width="${photo.width}" height="${photo.height}"` : null} />` : null}
      <div class="server-page-text">${storedHtml(post.descHtml)}</div>
      ${post.bodyHtml ? html`<div class="server-page-body">${storedHtml(post.bodyHtml)}</div>` : null}
      <section class="server-page-section">
        <h2>${post.commentsCount === 1 ? '1 comment' : `${post.commentsCount} comments`}</h2>
        ${
          comments.length
            ? html`<ol class="plain-list">
                ${comments.map(commentItem)}
              </ol>`
            : null
        }${more > 0 ? html`<p class="server-page-note">${`${more} more in the app.`}</p>` : null}
      </section>
    </article>`,
  };
}

export function profilePage(user: ProfileUser, posts: Post[], avatar: PageImage | null): PageParts {
  return {
    status: 200,
    meta: {
      title: user.userName,
      description: summarise(user.bio, `${user.userName} on ${SITE_NAME}${user.position ? `: ${user.position}` : ''}`),
      path: profilePath(user._id),
      type: 'profile',
      image: avatar,
      largeImage: false,
      profileUserName: user.userName,
      feeds: [{ source: { kind: 'user', id: user._id }, title: `${user.userName}'s posts on ${SITE_NAME}` }],
    },
    content: html`<article class="server-page">
      <h1 class="server-page-title">${user.userName}</h1>
      ${user.position ? html`<p class="server-page-byline">${user.position}</p>` : null}
      ${user.bio ? html`<p class="server-page-bio">${user.bio}</p>` : null}
      <section class="server-page-section">
        <h2>Posts</h2>
        ${postList(posts, 'No posts yet.')}
      </section>
    </article>`,
  };
}

export function tagPage(tag: Tag, posts: Post[]): PageParts {
  const counts = `${tag.postsCount === 1 ? '1 post' : `${tag.postsCount} posts`} · ${
    tag.followersCount === 1 ? '1 follower' : `${tag.followersCount} followers`
  }`;
  return {
    status: 200,
    meta: {
      title: `#${tag.name}`,
      description: `Posts tagged #${tag.name} on ${SITE_NAME} (${counts}).`,
      path: tagPath(tag.name),
      type: 'website',
      image: null,
      largeImage: false,
      feeds: [{ source: { kind: 'tag', name: tag.name }, title: `#${tag.name} on ${SITE_NAME}` }],
    },
    content: html`<article class="server-page">
      <h1 class="server-page-title">#${tag.name}</h1>
      <p class="server-page-byline">${`Posts tagged #${tag.name}: ${counts}`}</p>
      <section class="server-page-section">
        <h2>Latest posts</h2>
        ${postList(posts, 'No posts carry this tag yet.')}
      </section>
    </article>`,
  };
}

function noticeItem(notice: Notice): SafeHtml {
  return html`<li class="server-page-item">
    ${byline(notice.postedBy, notice.createdAt)}
    <div class="server-page-text">${storedHtml(notice.descHtml)}</div>
    ${
      notice.links.length
        ? html`<ul class="server-page-links">
            ${notice.links.map((link) =>
              isHttpUrl(link)
                ? html`<li><a href="${link}" rel="nofollow ugc noopener">${link}</a></li>`
                : html`<li>${link}</li>`,
            )}
          </ul>`
        : null
    }
  </li>`;
}

export function noticesPage(notices: Notice[]): PageParts {
  return {
    status: 200,
    meta: {
      title: 'Notices',
      description: `Short notices with links from the ${SITE_NAME} community.`,
      path: '/notices',
      type: 'website',
      image: null,
      largeImage: false,
      feeds: [],
    },
    content: html`<article class="server-page">
      <h1 class="server-page-title">Notices</h1>
      ${
        notices.length
          ? html`<ul class="plain-list server-page-list">
              ${notices.map(noticeItem)}
            </ul>`
          : html`<p class="server-page-note">No Notices to Show!</p>`
      }
    </article>`,
  };
}

/** A list's picture as the app's card shows it: the card-size copy, with its pixel size when known. */
export interface ListPicture {
  postId: string;
  src: string;
  width?: number;
  height?: number;
}

/**
 * The home page: the first page of the default feed as a visitor gets it. A signed-in reader's
 * feed is their own (their mutes and blocks), and `?feed=` asks for another one: the boot script
 * marks the page then, and its style keeps this list out of sight until the app draws the right
 * one (frontend/vite-plugins/app-shell.ts).
 */
export function homePage(posts: Post[], picture: ListPicture | null): PageParts {
  return {
    status: 200,
    meta: {
      title: null,
      description: SITE_DESCRIPTION,
      path: '/',
      type: 'website',
      image: null,
      largeImage: false,
      feeds: [
        { source: { kind: 'latest' }, title: `${SITE_NAME}: latest posts` },
        { source: { kind: 'hot' }, title: `${SITE_NAME}: hot posts` },
      ],
      preloadImage: picture?.src,
    },
    // A section, not an article: a list of posts is not one article (the app's own cards are the
    // articles, in a role="feed" list; readers and tests tell the two apart by that).
    content: html`<section class="server-page server-page-visitor-feed">
      <h1 class="server-page-title">For you</h1>
      ${postList(posts, 'No posts yet.', { level: 2, picture })}
    </section>`,
  };
}

/** The app's not-found screens, in the words the React app shows for them. */
export const NOT_FOUND = {
  post: { title: "This Post doesn't exist!", hint: 'Try searching for another Post or go to Home.' },
  user: { title: "This User doesn't exist!", hint: 'Try searching for another user or go to Home.' },
  tag: { title: "This tag doesn't exist!", hint: 'A tag is letters, digits and dashes. Go to Home.' },
} as const;

export function notFoundPage(kind: keyof typeof NOT_FOUND, path: string): PageParts {
  const { title, hint } = NOT_FOUND[kind];
  return {
    status: 404,
    meta: {
      title: kind === 'post' ? 'Post not found' : kind === 'user' ? 'User not found' : 'Tag not found',
      description: hint,
      path,
      type: 'website',
      image: null,
      largeImage: false,
      feeds: [],
      noIndex: true,
    },
    content: html`<section class="server-page server-page-missing">
      <h1 class="server-page-title">${title}</h1>
      <p>${hint}</p>
      <p class="server-page-actions"><a href="/">Go to Home</a><a href="/search">Search</a></p>
    </section>`,
  };
}
