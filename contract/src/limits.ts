/**
 * Every number a user can run into, in one place. The backend validates with these and the
 * web app shows counters and form rules with the same values, so the two can never disagree.
 */
export const LIMITS = {
  postTitleMax: 80,
  postDescMax: 400,
  /** A post's Markdown body (issue 16): optional, beside the spec's 400-character desc; drafts are held to it too. */
  postBodyMax: 40000,
  /** A post's tags (issue 17): at most this many, each at most postTagMax characters (see tag-rules.ts). */
  postTagsMax: 4,
  postTagMax: 30,
  noticeDescMax: 1000,
  noticeLinksMax: 3,
  noticeTagsMax: 5,
  noticeTagMax: 30,
  linkMax: 2048,
  commentMax: 1000,
  bioMax: 160,
  positionMax: 42,
  userNameMin: 3,
  userNameMax: 30,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
} as const;

/** userName: letters, digits, underscore, dot and dash. */
export const USER_NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

export const PAGINATION = {
  /** The feed the spec's client pages through, four cards at a time. */
  feedPageSize: 4,
  /** Default page size of the profile lists and the notices page. */
  listPageSize: 20,
  maxPageSize: 50,
  firstPage: 1,
} as const;

export const TOP_POSTS_COUNT = 5;

/** GET /api/tags (autocomplete): how many tags by default and at most. */
export const TAG_SUGGESTIONS = { defaultSize: 10, maxSize: 50 } as const;

/**
 * How many of a post's newest comments a compact list reply (feeds, a user's posts with
 * view=compact) carries. Lists stay small whatever a thread grows to.
 */
export const LIST_COMMENTS_PREVIEW = 3;

/**
 * A thread is read in pages of comments, oldest first (GET /api/posts/:id/comments?limit=&cursor=);
 * a compact single-post reply carries the first page.
 */
export const COMMENT_PAGE = { defaultSize: 50, maxSize: 100 } as const;

/** GET /api/posts/:id/revisions answers this many edits per page, newest first. */
export const REVISION_PAGE_SIZE = 50;

export const UI = {
  themeSaveDelayMs: 1500,
  topPostsSkeletonRows: 5,
  toastAutoCloseMs: 5000,
  /** Names longer than this are shown as the first `nameKeep` characters and an ellipsis. */
  nameTruncateAbove: 15,
  nameKeep: 12,
  emailTruncateAbove: 18,
  emailKeep: 15,
} as const;

export const STORAGE_KEYS = {
  token: 'jwt',
  user: 'techit-user',
  guestTheme: 'techit-theme',
} as const;

/** The picture every account starts with; served by this server so no third party is needed. */
export const DEFAULT_PROFILE_PIC = '/uploads/default-avatar.svg';

/**
 * The picture files the server takes (it checks the bytes; the web app checks the file's type
 * first, to say so before uploading), each with the name a person knows it by.
 */
export const IMAGE_TYPES = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/avif': 'AVIF',
} as const;

/** GET /api/search (docs/decisions/034-search.md). */
export const SEARCH = {
  /** Characters of q; a longer q is refused (400) before it is parsed. */
  queryMax: 200,
  /** Words and phrases a query may hold (operators included); more are refused. */
  termsMax: 12,
  defaultLimit: 20,
  maxLimit: 50,
  /** How deep pages go (results): ranked results page by position, and nobody reads past this. */
  depthMax: 1000,
  /** Words this long or longer may be corrected by one typo. */
  typoMinLength: 5,
  /** A wanted word this short (e.g. `ku`) is matched as the start of a word (`ku*`), as typed so far. */
  prefixMaxLength: 2,
  /**
   * Ranking window: a query's newest matches ranked by relevance (BM25 / ts_rank_cd); older ones
   * are not looked at. Twice depthMax, so every page anyone can reach is inside it.
   */
  rankWindow: 2000,
} as const;

/** Threads (issue 18): how deep replies nest on screen before "continue this thread". */
export const THREAD_DEPTH = { desktop: 6, phone: 3 } as const;

/** Notifications (issue 18). */
export const NOTIFICATIONS = {
  defaultLimit: 20,
  maxLimit: 50,
  /** Actors carried by a grouped like notification (newest first); actorsCount counts them all. */
  actorsShown: 3,
  /** Characters of a comment's or notice's text carried as `excerpt`. */
  excerptMax: 140,
  /** Ids one PUT /api/notifications/read may name. */
  markReadMaxIds: 100,
  /** Heartbeat comment on the stream, so proxies keep it open. */
  heartbeatSeconds: 25,
  /** A stream ticket works once, within this many seconds. */
  ticketSeconds: 60,
  /** Polling interval of the web app when the browser has no EventSource/streaming fetch. */
  pollSeconds: 60,
} as const;

/** @ mention suggestions (GET /api/users/suggest): from this many typed letters, this many users. */
export const USER_SUGGESTIONS = { minPrefix: 2, defaultSize: 8, maxSize: 20 } as const;

/** Bookmarks (issue 19): a page of GET /api/bookmarks. */
export const BOOKMARKS = { defaultLimit: 20, maxLimit: 50 } as const;

/**
 * What the site shows outside itself (issue 19): the generated card image's size (Open Graph's
 * recommended 1.91:1), how many comments a server-rendered post page carries, how many posts a
 * profile page and a feed file carry, and a sitemap page's size (the protocol's limit).
 */
export const OUTSIDE = {
  cardImage: { width: 1200, height: 630 },
  pageComments: 20,
  profilePosts: 20,
  feedEntries: 30,
  sitemapPageSize: 50_000,
} as const;

// Issue 20: moderation
/**
 * Reports and the queue: a report's note, a moderator's reason, a queue or log page. A suspension
 * without `until` lasts until SUSPENDED_INDEFINITELY (far future: "indefinitely").
 */
export const MODERATION = {
  noteMax: 500,
  reasonMax: 500,
  queuePageSize: 20,
  logPageSize: 50,
  excerptMax: 200,
  suspendedIndefinitely: '9999-12-31T23:59:59.999Z',
} as const;

// Issue 20: blocks and mutes
/** GET /api/blocks and /api/mutes: the caller's lists, newest first. */
export const USER_RELATIONS = { defaultLimit: 20, maxLimit: 50 } as const;

// Issue 20: accounts people control
/** POST /api/export: one archive per user per this many hours (429 with Retry-After before). */
export const ACCOUNT_EXPORT_INTERVAL_HOURS = 24;

// Issue 20: password reset
/** A reset link works once, for this long after it was made (mailed or printed by `npm run admin`). */
export const PASSWORD_RESET = { linkLifetimeMinutes: 60, tokenMax: 200 } as const;
