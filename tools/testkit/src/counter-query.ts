/**
 * Posts carry likes_count, comments_count and commenters_count, changed in the same transaction as
 * the like or comment. After a crash, a restore or a load, each must equal the rows it counts: this
 * query reads both side by side. Append a WHERE clause to narrow it to some posts. The comment
 * counters count live comments: a "[deleted]" placeholder kept for its replies (deleted = 1) is
 * neither a comment nor a commenter (docs/decisions/038-comment-threads.md).
 */
export const POST_COUNTERS_QUERY = `SELECT p.id, p.likes_count, p.comments_count, p.commenters_count,
       (SELECT count(*) FROM likes l WHERE l.post_id = p.id) AS likes,
       (SELECT count(*) FROM comments c WHERE c.post_id = p.id AND c.deleted = 0) AS comments,
       (SELECT count(DISTINCT c.author_id) FROM comments c WHERE c.post_id = p.id AND c.deleted = 0) AS commenters
  FROM posts p`;

/** The ids of the posts whose stored counters differ from their rows: none, when all is well. */
export const WRONG_POST_COUNTERS_QUERY = `SELECT id FROM (${POST_COUNTERS_QUERY}) counted
 WHERE likes_count <> likes OR comments_count <> comments OR commenters_count <> commenters`;

export interface PostCounters {
  id: string;
  likes_count: number;
  comments_count: number;
  commenters_count: number;
  likes: number;
  comments: number;
  commenters: number;
}

/** A row as a driver returns it: PostgreSQL returns count(*) as text (bigint). */
export type PostCountersRow = Record<keyof PostCounters, string | number>;

export function toPostCounters(row: PostCountersRow): PostCounters {
  return {
    id: String(row.id),
    likes_count: Number(row.likes_count),
    comments_count: Number(row.comments_count),
    commenters_count: Number(row.commenters_count),
    likes: Number(row.likes),
    comments: Number(row.comments),
    commenters: Number(row.commenters),
  };
}

/** Each stored counter that differs from its rows, in words; empty when all are exact. */
export function storedCounterMismatches(post: PostCounters): string[] {
  const problems: string[] = [];
  if (post.likes_count !== post.likes) problems.push(`likes_count ${post.likes_count} vs ${post.likes} like rows`);
  if (post.comments_count !== post.comments) {
    problems.push(`comments_count ${post.comments_count} vs ${post.comments} live comment rows`);
  }
  if (post.commenters_count !== post.commenters) {
    problems.push(`commenters_count ${post.commenters_count} vs ${post.commenters} distinct commenters`);
  }
  return problems;
}
