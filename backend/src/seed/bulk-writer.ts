import type { Selectable } from 'kysely';
import type { Database, Dialect } from '../database/database.types';

/** What the seed leaves empty but `reset` must empty too (they reference users, posts, comments). */
type UnseededTable =
  | 'drafts'
  | 'bookmarks'
  | 'blocks'
  | 'mutes'
  | 'notification_actors'
  | 'notifications'
  | 'notification_settings'
  | 'stream_tickets'
  | 'reports'
  | 'moderation_actions'
  | 'account_exports'
  | 'password_resets';

/**
 * The tables the seed fills: the content, not the settings, the idempotency keys, the drafts or
 * the notifications.
 */
export type TableName = Exclude<keyof Database, 'app_settings' | 'idempotency_keys' | UnseededTable>;
/** A whole row, every column given: the generator decides every value, defaults included. */
export type FullRow<T extends TableName> = Selectable<Database[T]>;

/**
 * Where generated rows go. The generator only knows this interface; each dialect loads rows its
 * fastest way without a new dependency (prepared statements on SQLite, unnest() on PostgreSQL).
 */
export interface BulkWriter {
  readonly dialect: Dialect;
  countPosts(): Promise<number>;
  /** Empties every app table (not the migration bookkeeping). */
  reset(): Promise<void>;
  begin(): Promise<void>;
  insert<T extends TableName>(table: T, rows: FullRow<T>[]): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Fresh planner statistics, so queries are planned for the real table sizes. */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

/** Children before parents, so deleting in this order never trips a foreign key. */
export const TABLES_CHILDREN_FIRST: readonly TableName[] = [
  'post_revisions',
  'post_tags',
  'tag_prefs',
  'likes',
  'comments',
  'follows',
  'notices',
  'posts',
  'tags',
  'users',
];

/**
 * What `reset` empties: the drafts and the notifications, which the seed does not fill but which
 * reference users and posts (PostgreSQL refuses to truncate a referenced table alone), then the
 * seeded tables.
 */
export const TABLES_TO_RESET: readonly (TableName | UnseededTable)[] = [
  'drafts',
  'bookmarks',
  'reports',
  'moderation_actions',
  'blocks',
  'mutes',
  'account_exports',
  'notification_actors',
  'notifications',
  'notification_settings',
  'stream_tickets',
  'password_resets',
  ...TABLES_CHILDREN_FIRST,
];

export const COLUMNS: { readonly [T in TableName]: readonly (keyof FullRow<T> & string)[] } = {
  users: [
    'id',
    'user_name',
    'email',
    'email_key',
    'password_hash',
    'pic',
    'position',
    'bio',
    'theme',
    'role',
    'created_at',
    'updated_at',
    'token_version',
  ],
  follows: ['follower_id', 'followee_id', 'created_at'],
  posts: [
    'id',
    'author_id',
    'title',
    'title_key',
    'description',
    'photo',
    'category',
    'link1',
    'link2',
    'likes_count',
    'comments_count',
    'commenters_count',
    'hot_score',
    'created_at',
    'updated_at',
    'edited_at',
    'body',
    'desc_html',
    'body_html',
    'render_version',
  ],
  // The seed writes no edit history (every seeded post is unedited); listed so reset empties it.
  post_revisions: ['id', 'post_id', 'editor_id', 'changes', 'created_at'],
  likes: ['post_id', 'user_id', 'created_at'],
  comments: ['id', 'post_id', 'author_id', 'text', 'created_at', 'text_html', 'render_version'],
  notices: ['id', 'author_id', 'description', 'links', 'tags', 'created_at', 'desc_html', 'render_version'],
  tags: ['name', 'posts_count', 'followers_count'],
  post_tags: ['post_id', 'tag', 'position', 'created_at'],
  tag_prefs: ['user_id', 'tag', 'kind', 'created_at'],
};

/** Integer columns as `table.column` (users.position is text, post_tags.position is not). */
const INTEGER_COLUMNS: ReadonlySet<string> = new Set([
  'posts.likes_count',
  'posts.comments_count',
  'posts.commenters_count',
  'users.token_version',
  'posts.render_version',
  'comments.render_version',
  'notices.render_version',
  'tags.posts_count',
  'tags.followers_count',
  'post_tags.position',
]);

/** Double precision columns (the hot score). */
const FLOAT_COLUMNS: ReadonlySet<string> = new Set(['posts.hot_score']);

/** A column's SQL type for PostgreSQL's typed arrays; every column not listed above is text (timestamps too). */
export function columnType(table: TableName, column: string): 'int' | 'float8' | 'text' {
  const qualified = `${table}.${column}`;
  if (INTEGER_COLUMNS.has(qualified)) return 'int';
  return FLOAT_COLUMNS.has(qualified) ? 'float8' : 'text';
}
