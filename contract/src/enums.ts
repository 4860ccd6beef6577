/**
 * `hot`: posts by a stored score of likes, distinct commenters and age (docs/decisions/033-hot-feed.md).
 * `tag`: the posts of one tag (with `tag=`); `tags`: the posts having any tag the reader follows.
 */
export const FEEDS = ['for-you', 'following', 'hot', 'tag', 'tags'] as const;
export type Feed = (typeof FEEDS)[number];
export const DEFAULT_FEED: HomeFeed = 'for-you';
/**
 * The feeds the web app's home page switches between (`/?feed=`), `tags` being "Your tags". `tag`
 * needs a tag name: it is the tag page's (`/t/:name`).
 */
export const HOME_FEEDS = ['for-you', 'following', 'hot', 'tags'] as const satisfies readonly Feed[];
export type HomeFeed = (typeof HOME_FEEDS)[number];

/** '' is "no category": a post may be created and saved without one (blank or missing). */
export const CATEGORIES = ['Doubt', 'Informative'] as const;
export type Category = (typeof CATEGORIES)[number];

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'light';

/**
 * `user` is the "member" (issue 20): the stored and answered value stays `user`, which
 * every client already compares against (docs/decisions/047-moderation.md). A moderator works the
 * report queue; an admin also deletes anything and sets roles.
 */
export const ROLES = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * How a reply that carries posts draws them (the `view` query parameter of every post route).
 * `full`, the default, is the spec's Post: `likes` lists every liker and `comments` the whole
 * conversation. `compact` is for clients that read the counts (the web app): `likes` holds only
 * the viewer's own id, lists carry the newest LIST_COMMENTS_PREVIEW comments and a single post the
 * first COMMENT_PAGE.defaultSize (docs/decisions/006-lean-post-replies.md).
 */
export const POST_VIEWS = ['full', 'compact'] as const;
export type PostView = (typeof POST_VIEWS)[number];
export const DEFAULT_POST_VIEW: PostView = 'full';

/**
 * Which Markdown set a text is rendered with: `post` is a post's body (CommonMark + GFM, headings,
 * images from this site's storage); `comment` and `notice` are the small set (no headings, no
 * images, line breaks kept) that a post's desc, a comment and a notice's desc use.
 */
export const MARKDOWN_KINDS = ['post', 'comment', 'notice'] as const;
export type MarkdownKind = (typeof MARKDOWN_KINDS)[number];

/**
 * GET /api/top-posts?window=: the posts created within the last day, week, month, or all of them.
 * No window is `all`, the seed's (and the spec's) top posts.
 */
export const TOP_POST_WINDOWS = ['day', 'week', 'month', 'all'] as const;
export type TopPostWindow = (typeof TOP_POST_WINDOWS)[number];
export const DEFAULT_TOP_POST_WINDOW: TopPostWindow = 'all';

/** What a notification is about (issue 18). */
export const NOTIFICATION_KINDS = ['like', 'comment', 'reply', 'mention', 'follow'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

// Issue 20: moderation
/** What can be reported (POST /api/reports). */
export const REPORT_TARGET_KINDS = ['post', 'comment', 'notice', 'user'] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];
export const REPORT_REASONS = ['spam', 'harassment', 'off-topic', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** How a moderator resolves a target's reports; `remove` is not for a user (suspend them instead). */
export const MODERATION_ACTIONS = ['dismiss', 'remove', 'suspend-author'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
/** What the public moderation log records: a resolution, or a suspension set or lifted by hand. */
export const MODERATION_LOG_ACTIONS = [...MODERATION_ACTIONS, 'suspend', 'unsuspend'] as const;
export type ModerationLogAction = (typeof MODERATION_LOG_ACTIONS)[number];
