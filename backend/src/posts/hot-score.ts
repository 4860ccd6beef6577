/**
 * The hot feed's rank (docs/decisions/033-hot-feed.md): a log of the post's engagement plus its
 * age, in the units where 10 times the engagement is worth HOT_SECONDS_PER_DECADE of newness.
 *
 * Time-invariant: it depends on the post's counters and its creation time only, not on "now", so
 * it is stored (posts.hot_score), indexed with the id, and changes only when a like, unlike,
 * comment or comment removal changes the counters (in that same transaction). Computed here, in
 * JavaScript, for both databases: the same Math.log10 gives the same bits on SQLite and
 * PostgreSQL, so the two order the feed identically.
 */
export const HOT_SECONDS_PER_DECADE = 45_000;

/** A distinct commenter weighs as much as two likes: a conversation costs more than a click. */
export const HOT_COMMENTER_WEIGHT = 2;

export interface HotInputs {
  likes_count: number;
  commenters_count: number;
  /** ISO 8601, as posts.created_at holds it. */
  created_at: string;
}

export function hotScore(post: HotInputs): number {
  const engagement = Math.max(1, post.likes_count + HOT_COMMENTER_WEIGHT * post.commenters_count);
  return Math.log10(engagement) + Date.parse(post.created_at) / 1000 / HOT_SECONDS_PER_DECADE;
}
