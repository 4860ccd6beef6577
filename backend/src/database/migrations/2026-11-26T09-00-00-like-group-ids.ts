import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

// Frozen once landed: never edit, add a new migration instead. No imports from app code.

const BATCH = 500;

/**
 * Like groups get the id derived from their key (docs/decisions/039-notifications.md, "The like
 * group's id"; the formula of backend/src/notifications/like-group-id.ts as it stood when this
 * landed), so the like path reaches a group by primary key. Groups written before had random ids:
 * each batch's likers are set aside, the groups renamed, the likers put back under the new ids
 * (notification_actors references notifications.id without ON UPDATE CASCADE, on both databases).
 */
export async function up(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const groups: { id: string; user_id: string; post_id: string }[] = await db
      .selectFrom('notifications')
      .select(['id', 'user_id', 'post_id'])
      .where('kind', '=', 'like')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (groups.length === 0) break;
    after = groups[groups.length - 1].id;
    const renamed = new Map(
      groups
        .map((group) => [group.id, likeGroupId(group.user_id, group.post_id)] as const)
        .filter(([from, to]) => from !== to),
    );
    if (renamed.size === 0) continue;
    const from = [...renamed.keys()];
    const actors: { notification_id: string; actor_id: string; created_at: string }[] = await db
      .selectFrom('notification_actors')
      .select(['notification_id', 'actor_id', 'created_at'])
      .where('notification_id', 'in', from)
      .execute();
    await db.deleteFrom('notification_actors').where('notification_id', 'in', from).execute();
    for (const [oldId, newId] of renamed) {
      await db.updateTable('notifications').set({ id: newId }).where('id', '=', oldId).execute();
    }
    for (let start = 0; start < actors.length; start += BATCH) {
      await db
        .insertInto('notification_actors')
        .values(
          actors.slice(start, start + BATCH).map((actor) => ({
            ...actor,
            notification_id: renamed.get(actor.notification_id) ?? actor.notification_id,
          })),
        )
        .execute();
    }
  }
}

/** Nothing to undo: the derived ids are as good as random ones to the code before this. */
export async function down(): Promise<void> {}

function likeGroupId(userId: string, postId: string): string {
  return createHash('sha256').update(`like-group:${userId}:${postId}`).digest('hex').slice(0, 24);
}
