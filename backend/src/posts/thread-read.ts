/**
 * How much one GET /api/posts/:id/comments?thread= answers (docs/decisions/038-comment-threads.md):
 * the replies down to `depth` levels below the comment (deeper ones are reached by asking for the
 * thread of a comment nearer them, as "continue this thread" does), `pageSize` of them per answer,
 * the rest by nextCursor. The chain of ancestors always comes whole, so the client can place the
 * comment.
 */
export const THREAD_READ = { depth: 50, pageSize: 500 } as const;
