/**
 * The JSON shapes of the API. Field names follow the original TechIt API (MongoDB's `_id`,
 * `postedBy`, `desc`) so its existing clients keep working unchanged.
 */
import type {
  Category,
  MarkdownKind,
  ModerationAction,
  ModerationLogAction,
  NotificationKind,
  ReportReason,
  ReportStatus,
  ReportTargetKind,
  Role,
  Theme,
} from './enums';

/** 24 lowercase hex characters in MongoDB ObjectId format. */
export type Id = string;
/** ISO 8601 timestamp in UTC. */
export type IsoDate = string;

export interface Author {
  _id: Id;
  userName: string;
  pic: string;
}

/** A user as anyone may see them. */
export interface ProfileUser {
  _id: Id;
  userName: string;
  pic: string;
  position: string;
  bio: string;
  followers: Id[];
  following: Id[];
  role: Role;
  createdAt: IsoDate;
}

/** The logged-in user: the profile plus what only they may see. */
export interface Me extends ProfileUser {
  email: string;
  theme: Theme;
}

export interface Comment {
  _id: Id;
  text: string;
  /**
   * `text` rendered from Markdown's small set (MarkdownKind 'comment'), sanitised, rendered when
   * written (docs/decisions/028-stored-html.md). Carried wherever a comment is.
   */
  textHtml: string;
  /**
   * The comment's author. A deleted comment that still has replies keeps its place with no author
   * and no text (issue 18): `deleted` is true, `text` and `textHtml` are empty and `postedBy` is
   * DELETED_AUTHOR (empty id, userName '[deleted]'), so the spec's clients keep drawing it.
   */
  postedBy: Author;
  createdAt: IsoDate;
  /** The comment this one answers (same post); null for a comment at the top of the thread. */
  parentId: Id | null;
  /** When the author last edited the text; null if never edited. */
  editedAt: IsoDate | null;
  /** True for the "[deleted]" placeholder of a deleted comment that has replies. */
  deleted: boolean;
  /**
   * Present (true) only on a comment the moderators removed (issue 20): others get it in place
   * with no text and REMOVED_AUTHOR; its author and the moderators get it whole.
   */
  removed?: boolean;
  /**
   * Issue 20: present (true) only when the signed-in reader mutes the comment's author; the web
   * app collapses it behind "show" (docs/decisions/048-blocks-and-mutes.md). Absent otherwise.
   */
  muted?: true;
}

/** postedBy of a deleted comment kept for its replies: no author. */
export const DELETED_AUTHOR: Author = { _id: '', userName: '[deleted]', pic: '' };

/**
 * A post. Which replies carry `body` and `bodyHtml`: every reply that carries exactly one Post
 * (GET /api/posts/:id, createpost, editpost, deletepost, comment, uncomment) carries both; every
 * list of posts (feeds, a user's posts) leaves both out, for size. `descHtml` is everywhere.
 */
export interface Post {
  _id: Id;
  /**
   * Present (true) only on a post the moderators removed (issue 20): it has left every list; read
   * by id, its author and the moderators get it whole, anyone else an empty placeholder.
   */
  removed?: boolean;
  title: string;
  desc: string;
  /**
   * `desc` rendered from Markdown's small set (MarkdownKind 'comment'), sanitised; lists carry it
   * too. Rendered once when written (docs/decisions/028-stored-html.md).
   */
  descHtml: string;
  /** Single-post replies only: the Markdown article (at most LIMITS.postBodyMax characters), '' when none. */
  body?: string;
  /** Single-post replies only: `body` rendered (MarkdownKind 'post'), sanitised; '' when there is no body. */
  bodyHtml?: string;
  photo: string;
  category: Category | '';
  link1: string;
  link2: string;
  /** 0 to LIMITS.postTagsMax tag names in the author's order, normalised (contract/src/tag-rules.ts); lists carry them too. */
  tags: string[];
  /**
   * The ids of everyone who liked the post. With `view=compact` only the viewer's own id when the
   * viewer (the bearer of the token) likes it, else empty — enough to draw the like button;
   * likesCount is always the total (docs/decisions/006-lean-post-replies.md).
   */
  likes: Id[];
  /**
   * Oldest first, the whole conversation. With `view=compact` a list (feeds, a user's posts)
   * carries only the newest LIST_COMMENTS_PREVIEW and a single post the first COMMENT_PAGE.defaultSize
   * (see commentsNextCursor). commentsCount is always the total.
   */
  comments: Comment[];
  /**
   * Compact single-post replies only: pass as `cursor` to GET /api/posts/:id/comments for the
   * comments after those carried; null when `comments` holds them all.
   */
  commentsNextCursor?: string | null;
  likesCount: number;
  commentsCount: number;
  postedBy: Author;
  createdAt: IsoDate;
  /** createdAt until the author edits the post; likes and comments leave it. */
  updatedAt: IsoDate;
  /**
   * When the author last changed the post (the web app's "edited"); null when never. Unlike
   * updatedAt, an edit that changes nothing, an import or a migration never sets it
   * (docs/decisions/027-post-revisions.md).
   */
  editedAt: IsoDate | null;
  /**
   * Whether the reader (the bearer of the token) saved the post to their bookmarks; false for a
   * visitor. Private: it only ever describes the reader (issue 19); every reply carrying a post,
   * lists too, has it.
   */
  bookmarked: boolean;
}

/** The fields a post revision records (the editable ones, by their API names). */
export type RevisedField = 'title' | 'desc' | 'body' | 'category' | 'link1' | 'link2' | 'photo' | 'tags';

export interface FieldChange {
  from: string;
  to: string;
}

/** What one edit changed: only the fields whose value differs, each with its before and after. */
export type RevisionChanges = Partial<Record<RevisedField, FieldChange>>;

/** One edit of a post: who, when, and only the fields it changed. */
export interface PostRevision {
  _id: Id;
  editedBy: Author;
  createdAt: IsoDate;
  changes: RevisionChanges;
}

/** GET /api/posts/:id/revisions: newest first, REVISION_PAGE_SIZE at a time. */
export interface PostRevisionsReply {
  revisions: PostRevision[];
  /** Pass back as `cursor` for the next page; null when there is no next page. */
  nextCursor: string | null;
}

export interface Notice {
  _id: Id;
  /** Present (true) only when the moderators removed it; see Comment.removed. */
  removed?: boolean;
  desc: string;
  /** `desc` rendered from Markdown's small set (MarkdownKind 'notice'), sanitised, rendered when written. */
  descHtml: string;
  links: string[];
  tags: string[];
  postedBy: Author;
  createdAt: IsoDate;
}

/** What a draft is for: a post (new, or the edit page of one with postId) or a notice. */
export type DraftKind = 'post' | 'notice';

/**
 * The fields a draft holds, every one optional and kept exactly as typed (not trimmed): a draft may
 * be empty or half-typed, but never longer than the publish limits. A post draft holds title,
 * desc, body, category, link1, link2 and pic; a notice draft desc and links.
 */
export interface DraftFields {
  title?: string;
  desc?: string;
  /** Markdown, at most LIMITS.postBodyMax characters. */
  body?: string;
  category?: Category | '';
  link1?: string;
  link2?: string;
  pic?: string;
  /** Post drafts: the tags chosen so far, as typed in the editor (checked when published). */
  tags?: string[];
  links?: string[];
}

/** An unpublished post or notice, seen only by its owner (docs/decisions/026-drafts.md). */
export interface Draft extends DraftFields {
  _id: Id;
  kind: DraftKind;
  /** The post whose edit page this draft belongs to; null for a new post or notice. */
  postId: Id | null;
  /** 1 when created, one more on every save; a save must send the version it started from. */
  version: number;
  createdAt: IsoDate;
  updatedAt: IsoDate;
}

export interface DraftReply {
  draft: Draft;
}

/** GET /api/drafts: the caller's drafts, most recently saved first. */
export interface DraftListReply {
  drafts: Draft[];
  nextCursor: string | null;
}

/**
 * 409 from PUT /api/drafts/:id (the version sent is not the stored one) or POST /api/drafts (the
 * post already has an edit draft): the stored draft, so the editor can offer to keep either.
 */
export interface DraftConflictReply {
  error: string;
  draft: Draft;
}

/**
 * A tag as GET /api/tags, GET /api/tags/:name and the follow/mute calls answer it. `following` and
 * `muted` are the reader's (false for a visitor); a tag is never both.
 */
export interface Tag {
  name: string;
  postsCount: number;
  followersCount: number;
  following: boolean;
  muted: boolean;
}

/** GET /api/tags/:name and PUT /api/tags/:name/follow|unfollow|mute|unmute. */
export interface TagReply {
  tag: Tag;
}

/** GET /api/tags?prefix=&limit=: most-used first. */
export interface TagsReply {
  tags: Tag[];
}

export interface TopPost {
  _id: Id;
  title: string;
  postedBy: Author;
  likesCount: number;
  commentsCount: number;
}

export interface ErrorReply {
  /** One line a person can read: the first problem (the spec's client shows only this). */
  error: string;
  /**
   * Invalid input (400) or a taken userName/email (409), when the request said
   * `Prefer: field-errors`: every failing request field, each with a sentence to show next to that
   * field. Absent otherwise, so the reply is exactly the spec's `{ error }`.
   */
  fields?: Partial<Record<string, string>>;
}

/** The `Prefer` header value asking error replies to carry `fields` (see ErrorReply). */
export const FIELD_ERRORS_PREFERENCE = 'field-errors';

export interface MessageReply {
  message: string;
}

export interface SignUpRequest {
  userName: string;
  email: string;
  password: string;
  pic?: string;
}

export interface SignInRequest {
  /** A userName or an email. */
  userName: string;
  password: string;
}

export interface SignInReply {
  token: string;
  user: Me;
}

export interface PostListReply {
  posts: Post[];
  /** Pass back as `cursor` for the next page; null when there is no next page. */
  nextCursor: string | null;
}

/**
 * GET /api/bookmarks: the reader's saved posts, the newest saved first (compact posts, as the
 * feeds carry them), each with when it was saved.
 */
export interface BookmarksReply {
  posts: Array<Post & { bookmarkedAt: IsoDate }>;
  nextCursor: string | null;
}

/** The answer to PUT /api/bookmark and /api/unbookmark. */
export interface BookmarkReply {
  _id: Id;
  bookmarked: boolean;
}

export interface UserPostsReply {
  userPosts: Post[];
  nextCursor: string | null;
}

export interface NoticeListReply {
  notices: Notice[];
  nextCursor: string | null;
}

export interface PostReply {
  post: Post;
}

/**
 * The answer to PUT /api/like and /api/unlike: the post's id, its likes as Post.likes carries them
 * in the view asked for (every liker; with view=compact the caller's own like), and the new total. Everything else about the post is unchanged by a like, so it is
 * not sent again (docs/decisions/006-lean-post-replies.md).
 */
export interface LikeReply {
  _id: Id;
  likes: Id[];
  likesCount: number;
}

/** GET /api/posts/:id/comments: one page, oldest first. */
export interface CommentsReply {
  comments: Comment[];
  /** Pass back as `cursor` for the next page; null when there is no next page. */
  nextCursor: string | null;
}

export interface NoticeReply {
  notice: Notice;
}

export interface TopPostsReply {
  posts: TopPost[];
}

export interface UserReply {
  user: ProfileUser;
  /** Only for a signed-in reader (absent for visitors and on their own profile): see ProfileViewer. */
  viewer?: ProfileViewer;
}

export interface UploadReply {
  url: string;
}

export interface HealthReply {
  status: 'ok';
  database: 'sqlite' | 'postgres';
}

/** POST /api/preview: Markdown rendered by the very function that renders it on save. */
export interface PreviewRequest {
  markdown: string;
  kind: MarkdownKind;
}
export interface PreviewReply {
  html: string;
}

/** What GET /api/search looks through. */
export type SearchType = 'posts' | 'notices' | 'users' | 'tags';

/** A post found by GET /api/search?type=posts. */
export interface PostSearchResult {
  _id: Id;
  title: string;
  /**
   * A short passage of desc or body around the first match, as HTML whose only markup is
   * `<mark>` around matched words; everything else is escaped (docs/decisions/034-search.md).
   */
  snippet: string;
  postedBy: Author;
  /** The post's tags. */
  tags: string[];
  likesCount: number;
  commentsCount: number;
  createdAt: IsoDate;
}

/** A notice found by GET /api/search?type=notices; snippet as in PostSearchResult. */
export interface NoticeSearchResult {
  _id: Id;
  snippet: string;
  postedBy: Author;
  createdAt: IsoDate;
}

/** A user found by GET /api/search?type=users. */
export interface UserSearchResult {
  _id: Id;
  userName: string;
  pic: string;
  position: string;
  bio: string;
}

/**
 * A tag found by GET /api/search?type=tags: tags whose name starts with the query's word,
 * most-used first; the same shape as GET /api/tags (the reader's follow/mute state included).
 */
export type TagSearchResult = Tag;

/**
 * GET /api/search?q=…&type=…: the results of one type, best first. Query language: words (all
 * must match), "a phrase", -excluded, @userName (author), tag:name.
 */
export interface SearchReply<T = PostSearchResult | NoticeSearchResult | UserSearchResult | TagSearchResult> {
  results: T[];
  /** Pass back as `cursor` (with the same q and type) for the next page; null when there is none. */
  nextCursor: string | null;
  /**
   * Present only when nothing matched as typed and a word of 5+ letters was taken as a one-letter
   * typo of a known word: the query the results are for ("showing results for …"). Later pages
   * are asked for with this query.
   */
  correctedQuery?: string;
}

/** Who caused a notification. */
export type NotificationActor = Author;

/**
 * One notification (GET /api/notifications). Likes are grouped per post: one notification whose
 * `actors` are the latest likers (newest first, at most NOTIFICATIONS.actorsShown) and
 * `actorsCount` all of them ("ada and 12 others liked your post"). Every other kind has one actor.
 */
export interface Notification {
  _id: Id;
  kind: NotificationKind;
  actors: NotificationActor[];
  actorsCount: number;
  /** The post it is about (like, comment, reply, a mention in a post or in a comment). */
  post?: { _id: Id; title: string };
  /** The comment it is about (comment, reply, a mention in a comment): its id and its text's start. */
  comment?: { _id: Id; excerpt: string };
  /** The notice it is about (a mention in a notice). */
  notice?: { _id: Id; excerpt: string };
  read: boolean;
  /** When it last changed: a grouped like moves up when someone else likes the post. */
  createdAt: IsoDate;
}

/** GET /api/notifications?cursor=&limit=: newest first. */
export interface NotificationsReply {
  notifications: Notification[];
  /** Pass back as `cursor` for the next page; null when there is none. */
  nextCursor: string | null;
  unreadCount: number;
}

/** GET /api/notifications/unread-count */
export interface UnreadCountReply {
  unreadCount: number;
}

/** PUT /api/notifications/read: either these ids (the caller's own; others are ignored) or all. */
export type MarkReadRequest = { ids: Id[] } | { all: true };

/** GET/PUT /api/notification-settings: one switch per kind; PUT takes any subset. */
export type NotificationSettings = Record<NotificationKind, boolean>;

/**
 * What GET /api/notifications/stream sends (Server-Sent Events, `event: notification`, JSON in
 * `data`): the unread count, and the notification that changed when there is one (absent for a
 * read-state change or the first message after connecting).
 */
export interface NotificationStreamEvent {
  unreadCount: number;
  notification?: Notification;
}

/** POST /api/notifications/stream-ticket: a single-use ticket for ?ticket= on the stream (EventSource cannot send headers). */
export interface StreamTicketReply {
  ticket: string;
  expiresInSeconds: number;
}

/** GET /api/users/suggest?prefix=&limit=: users whose userName starts with prefix (for @ mentions). */
export interface UserSuggestionsReply {
  users: Author[];
}

// Issue 20: moderation
/** postedBy of content the moderators removed, as anyone but its author and the moderators see it. */
export const REMOVED_AUTHOR: Author = { _id: '', userName: '[removed by the moderators]', pic: '' };

/** POST /api/reports. */
export interface ReportRequest {
  targetKind: ReportTargetKind;
  targetId: Id;
  reason: ReportReason;
  note?: string;
}

/** A report as its reporter gets it back (a second open report of one target answers the first). */
export interface Report {
  _id: Id;
  targetKind: ReportTargetKind;
  targetId: Id;
  reason: ReportReason;
  note: string;
  status: ReportStatus;
  createdAt: IsoDate;
}

export interface ReportReply {
  report: Report;
}

/** What the queue shows of a reported target; `excerpt` is its text cut short ('' for a user). */
export interface ReportedTarget {
  /** Null when the target is gone (deleted since it was reported). */
  excerpt: string | null;
  author: Author | null;
  removed: boolean;
  /** The author's (or reported user's) suspension end; null when not suspended. */
  suspendedUntil: IsoDate | null;
  /** A comment's post (so the queue can link to the thread); absent for other kinds and gone targets. */
  postId?: Id;
}

/** One target of the queue: its reports, grouped. */
export interface ReportGroup {
  targetKind: ReportTargetKind;
  targetId: Id;
  target: ReportedTarget;
  count: number;
  reasons: Partial<Record<ReportReason, number>>;
  /** The notes reporters wrote, newest first (at most 5). */
  notes: string[];
  firstReportedAt: IsoDate;
  lastReportedAt: IsoDate;
  status: ReportStatus;
}

/** GET /api/reports?status=&cursor=: worst first (most reports, then the latest report). */
export interface ReportQueueReply {
  reports: ReportGroup[];
  nextCursor: string | null;
}

/** PUT /api/reports/:targetKind/:targetId/resolve. `until` only with suspend-author (none: indefinitely). */
export interface ResolveReportsRequest {
  action: ModerationAction;
  reason: string;
  until?: IsoDate;
}

export interface ResolveReportsReply {
  resolved: number;
  entry: ModerationLogEntry;
}

/** One entry of the public moderation log; `moderator` only for moderators and admins. */
export interface ModerationLogEntry {
  _id: Id;
  at: IsoDate;
  action: ModerationLogAction;
  targetKind: ReportTargetKind;
  targetId: Id;
  reason: string;
  moderator?: Author;
}

/** GET /api/moderation-log?cursor=: newest first. */
export interface ModerationLogReply {
  entries: ModerationLogEntry[];
  nextCursor: string | null;
}

/** PUT /api/admin/users/:id/role (admins). */
export interface SetRoleRequest {
  role: Role;
}

/** PUT /api/admin/users/:id/suspend (moderators and admins): `until` absent is indefinitely. */
export interface SuspendRequest {
  reason: string;
  until?: IsoDate;
}

/** PUT /api/admin/users/:id/unsuspend. */
export interface UnsuspendRequest {
  reason: string;
}

export interface SuspensionReply {
  userId: Id;
  /** null once lifted. */
  suspendedUntil: IsoDate | null;
  entry: ModerationLogEntry;
}

/** One account as the admin area's users list shows it (GET /api/admin/users). */
export interface AdminUser {
  _id: Id;
  userName: string;
  pic: string;
  /** The effective role (ADMIN_USERNAMES counts): 'user' is a member. */
  role: Role;
  /** When the suspension ends (MODERATION.suspendedIndefinitely: indefinitely); null when not suspended. */
  suspendedUntil: IsoDate | null;
  createdAt: IsoDate;
}

/** GET /api/admin/users?q=&cursor= (moderators and admins): newest first, 20 a page. */
export interface AdminUsersReply {
  users: AdminUser[];
  nextCursor: string | null;
}

/** POST /api/admin/users/:id/password-reset-link (admins): a one-time link to pass on, valid until expiresAt. */
export interface PasswordResetLinkReply {
  link: string;
  expiresAt: IsoDate;
}

// Issue 20: blocks and mutes (docs/decisions/048-blocks-and-mutes.md)

/** PUT /api/block, /api/unblock, /api/mute, /api/unmute: the body. */
export interface UserIdRequest {
  userId: Id;
}

/** PUT /api/block and /api/unblock: whether the caller now blocks the user. */
export interface BlockReply {
  userId: Id;
  blocked: boolean;
}

/** PUT /api/mute and /api/unmute: whether the caller now mutes the user. */
export interface MuteReply {
  userId: Id;
  muted: boolean;
}

/** A user on the caller's block or mute list, with when they were added. */
export interface RelatedUser extends Author {
  since: IsoDate;
}

/** GET /api/blocks and GET /api/mutes: the caller's own list, newest first, paged by cursor. */
export interface RelatedUsersReply {
  users: RelatedUser[];
  nextCursor: string | null;
}

// Issue 20: accounts people control (docs/decisions/049-accounts-people-control.md)

/** PUT /api/password: `next` follows sign-up's password rules. */
export interface ChangePasswordRequest {
  current: string;
  next: string;
}

/** Every other session has ended; `token` keeps this one signed in (the old token answers 401). */
export interface ChangePasswordReply {
  message: string;
  token: string;
}

/** PUT /api/email (answers Me): `email` follows sign-up's email rules. */
export interface ChangeEmailRequest {
  password: string;
  email: string;
}

/** What DELETE /api/account does with the account's posts, comments and notices. */
export const ACCOUNT_CONTENT_CHOICES = ['delete', 'anonymise'] as const;
export type AccountContentChoice = (typeof ACCOUNT_CONTENT_CHOICES)[number];

export interface DeleteAccountRequest {
  password: string;
  content: AccountContentChoice;
}

/**
 * The author of a post, notice or comment whose account was deleted with `content: "anonymise"`:
 * like DELETED_AUTHOR, an empty id (nothing to link to) and a name no account can take.
 */
export const DELETED_USER_AUTHOR: Author = { _id: '', userName: '[deleted user]', pic: '' };

// Issue 20: password reset

/** POST /api/password-reset: always answers 200 with the same MessageReply, whether or not an account uses the email. */
export interface PasswordResetRequest {
  email: string;
}

/** POST /api/password-reset/confirm: the `token` of the mailed link and the new password (sign-up's rules). */
export interface PasswordResetConfirmRequest {
  token: string;
  password: string;
}

// Issue 20: blocks and mutes in the web app

/** GET /api/user/:id for a signed-in reader of another user's profile: whether the reader blocks / mutes them. */
export interface ProfileViewer {
  blocks: boolean;
  mutes: boolean;
}
