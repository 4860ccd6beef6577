import { createHash } from 'node:crypto';

/**
 * The id of a user's like group for a post: derived from that key, not drawn at random, so the
 * like path reaches the group by primary key — the liker's row is inserted with it and an unlike
 * lowers it — instead of looking the group up by (user, post) first, which was the dearest
 * statement of a like toggle (docs/decisions/039-notifications.md, "The like group's id"). At most
 * one like group exists per key (a partial unique index), so the id is unique too; a group
 * withdrawn and started again gets the same id, which is harmless: it is the same group.
 *
 * ObjectId-format (24 lowercase hex digits) like every other id of the API.
 */
export function likeGroupId(userId: string, postId: string): string {
  return createHash('sha256').update(`like-group:${userId}:${postId}`).digest('hex').slice(0, 24);
}
