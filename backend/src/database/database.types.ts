import type { NotificationKind } from '@techit/contract/enums';
import type { ColumnType, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/**
 * The tables as Kysely sees them. Timestamps are ISO 8601 text (UTC, millisecond precision) on
 * both dialects: they sort correctly as text and need no per-dialect conversion; see
 * docs/decisions/002-one-schema-for-sqlite-and-postgres.md.
 */
export interface UsersTable {
  id: string;
  user_name: string;
  email: string;
  /** See emailKey() in users/users.repository.ts. */
  email_key: string;
  password_hash: string;
  pic: string;
  position: string;
  bio: string;
  theme: string;
  role: string;
  created_at: string;
  updated_at: string;
  /** Raised by POST /api/logout-all; a token whose `ver` differs is refused (auth/jwt.strategy.ts). */
  token_version: number;
  /** Suspended until then (a far-future time: indefinitely); null: not suspended (decision 047). */
  suspended_until: string | null;
}

export interface FollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: string;
}

export interface PostsTable {
  id: string;
  author_id: string;
  title: string;
  /**
   * The title reduced to its words (search's titleKey), for search's exact-title step (migration
   * 2026-11-29T06-00-00): written with every title, by the app, the import and the seed.
   */
  title_key: string;
  description: string;
  photo: string;
  category: string;
  link1: string;
  link2: string;
  likes_count: number;
  comments_count: number;
  /** Distinct users who commented: top posts rank by likes plus this. */
  commenters_count: number;
  /**
   * The hot feed's rank, kept with the counters (posts/hot-score.ts, docs/decisions/033-hot-feed.md).
   * Every insert of the app, the seed and the import sets it; optional only for tests' raw rows
   * (the column's default, 0, puts such a post last in the hot feed).
   */
  hot_score: ColumnType<number, number | undefined, number>;
  created_at: string;
  updated_at: string;
  /** The last edit that changed something; null until then (likes and comments never set it). */
  edited_at: string | null;
  /** Markdown, '' when the post has none; read by single-post replies only (never by lists). */
  body: string;
  /** desc rendered (kind 'comment'); null until rendered (rows from before stored HTML). */
  desc_html: string | null;
  /** body rendered (kind 'post'); null until rendered. */
  body_html: string | null;
  /** The RENDERER_VERSION desc_html and body_html were rendered with; 0: never rendered. */
  render_version: number;
  /** When a moderator removed it (docs/decisions/047-moderation.md); null while it stands. */
  removed_at: string | null;
  /** The moderator who removed it. */
  removed_by: string | null;
}

/** One edit of a post; see docs/decisions/027-post-revisions.md. */
export interface PostRevisionsTable {
  id: string;
  post_id: string;
  editor_id: string;
  /** JSON: { [apiField]: { from, to } } for the fields this edit changed. */
  changes: string;
  created_at: string;
}

export interface LikesTable {
  post_id: string;
  user_id: string;
  created_at: string;
}

/** A post a user saved (docs/decisions/043-bookmarks.md); private to that user. */
export interface BookmarksTable {
  user_id: string;
  post_id: string;
  created_at: string;
}

/**
 * A block or a mute (docs/decisions/048-blocks-and-mutes.md): `user_id` blocks (or mutes)
 * `other_id`. Private to `user_id`.
 */
export interface UserRelationsTable {
  user_id: string;
  other_id: string;
  created_at: string;
}

export interface CommentsTable {
  id: string;
  post_id: string;
  author_id: string;
  text: string;
  created_at: string;
  /** text rendered (kind 'comment'); null until rendered (rows from before stored HTML). */
  text_html: string | null;
  /** The RENDERER_VERSION text_html was rendered with; 0: never rendered. */
  render_version: number;
  /** The comment this one answers (same post); null at the top of the thread. */
  parent_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the author last edited the text; null if never. */
  edited_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the "[deleted]" placeholder of a deleted comment that still has replies (text emptied). */
  deleted: ColumnType<number, number | undefined, number>;
  /** When a moderator removed it (docs/decisions/047-moderation.md); null while it stands. */
  removed_at: string | null;
  /** The moderator who removed it. */
  removed_by: string | null;
}

export interface NoticesTable {
  id: string;
  author_id: string;
  description: string;
  /** JSON array of strings. */
  links: string;
  /** JSON array of strings. */
  tags: string;
  created_at: string;
  /** description rendered (kind 'notice'); null until rendered (rows from before stored HTML). */
  desc_html: string | null;
  /** The RENDERER_VERSION desc_html was rendered with; 0: never rendered. */
  render_version: number;
  /** When a moderator removed it (docs/decisions/047-moderation.md); null while it stands. */
  removed_at: string | null;
  /** The moderator who removed it. */
  removed_by: string | null;
}

/** Values the application generates once per database and every instance shares (the JWT secret). */
export interface AppSettingsTable {
  key: string;
  value: string;
  created_at: string;
}

/** See docs/decisions/022-idempotency-keys.md. */
export interface IdempotencyKeysTable {
  user_id: string;
  route: string;
  key: string;
  request_hash: string;
  /** Null while the first request with this key is in progress. */
  status: number | null;
  /** The reply's JSON, once completed. */
  response: string | null;
  created_at: string;
}

/** Unpublished posts and notices (docs/decisions/026-drafts.md). */
export interface DraftsTable {
  id: string;
  user_id: string;
  /** 'post' | 'notice' */
  kind: string;
  /** The post whose edit page this draft belongs to; null for a new post or notice. */
  post_id: string | null;
  /** JSON object of the draft's fields (DraftFields in the contract), exactly as typed. */
  fields: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A tag's counters, kept in the transaction of each change (docs/decisions/032-tags.md). */
export interface TagsTable {
  name: string;
  posts_count: number;
  followers_count: number;
}

/** A post's tags in the author's order; created_at is the post's. */
export interface PostTagsTable {
  post_id: string;
  tag: string;
  position: number;
  created_at: string;
}

/** A user follows or mutes a tag: one row per user and tag. */
export interface TagPrefsTable {
  user_id: string;
  tag: string;
  kind: 'follow' | 'mute';
  created_at: string;
}

/** A notification of user_id (issue 18, docs/decisions/039-notifications.md). */
export interface NotificationsTable {
  id: string;
  /** The recipient. */
  user_id: string;
  kind: NotificationKind;
  post_id: string | null;
  /** Set null when the comment is removed (an unread notification about it is withdrawn first). */
  comment_id: string | null;
  notice_id: string | null;
  /** How many notification_actors rows it has (a like group's likers; 1 for every other kind). */
  actors_count: ColumnType<number, number | undefined, number>;
  /** 0 unread, 1 read. */
  read: ColumnType<number, number | undefined, number>;
  /** When it last changed: a like group moves up when someone else likes the post. */
  created_at: string;
}

export interface NotificationActorsTable {
  notification_id: string;
  actor_id: string;
  created_at: string;
}

/** A row is a kind its user switched off; no row: on. */
export interface NotificationSettingsTable {
  user_id: string;
  kind: NotificationKind;
}

/** A single-use stream ticket, by the SHA-256 (hex) of the ticket itself. */
export interface StreamTicketsTable {
  id: string;
  user_id: string;
  expires_at: string;
}

/** A report of a post, comment, notice or user (issue 20, docs/decisions/047-moderation.md). */
export interface ReportsTable {
  id: string;
  reporter_id: string;
  target_kind: string;
  target_id: string;
  reason: string;
  note: ColumnType<string, string | undefined, string>;
  /** 'open' | 'resolved' */
  status: ColumnType<string, string | undefined, string>;
  created_at: string;
  resolved_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One entry of the public moderation log. */
export interface ModerationActionsTable {
  id: string;
  /** Null once the moderator's account is gone. */
  moderator_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  reason: string;
  created_at: string;
}

/** When a user last started a data export (docs/decisions/049-accounts-people-control.md). */
export interface AccountExportsTable {
  user_id: string;
  exported_at: string;
}

/**
 * An outstanding password reset link (issue 20): the SHA-256 of its token (hex), never the token;
 * deleted when used, with every other row of its user.
 */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface Database {
  reports: ReportsTable;
  moderation_actions: ModerationActionsTable;
  account_exports: AccountExportsTable;
  notifications: NotificationsTable;
  notification_actors: NotificationActorsTable;
  notification_settings: NotificationSettingsTable;
  stream_tickets: StreamTicketsTable;
  tags: TagsTable;
  post_tags: PostTagsTable;
  tag_prefs: TagPrefsTable;
  app_settings: AppSettingsTable;
  idempotency_keys: IdempotencyKeysTable;
  users: UsersTable;
  follows: FollowsTable;
  posts: PostsTable;
  post_revisions: PostRevisionsTable;
  likes: LikesTable;
  bookmarks: BookmarksTable;
  blocks: UserRelationsTable;
  mutes: UserRelationsTable;
  comments: CommentsTable;
  notices: NoticesTable;
  drafts: DraftsTable;
  password_resets: PasswordResetsTable;
}

export type Db = Kysely<Database>;
/** What a repository method runs on: the database, or a transaction a service opened. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PostRow = Selectable<PostsTable>;
export type NewPost = Insertable<PostsTable>;
export type PostUpdate = Updateable<PostsTable>;
export type PostRevisionRow = Selectable<PostRevisionsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type NewComment = Insertable<CommentsTable>;
export type NoticeRow = Selectable<NoticesTable>;
export type NewNotice = Insertable<NoticesTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type DraftRow = Selectable<DraftsTable>;
export type NewDraft = Insertable<DraftsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type NewNotification = Insertable<NotificationsTable>;
