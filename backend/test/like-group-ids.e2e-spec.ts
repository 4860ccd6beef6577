import { up as deriveLikeGroupIds } from '../src/database/migrations/2026-11-26T09-00-00-like-group-ids';
import { likeGroupId } from '../src/notifications/like-group-id';
import { createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A like group's id is derived from (recipient, post), so the like path reaches it by primary key;
 * groups written before that rule had random ids, and the migration renames them with their likers.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const like = (user: TestUser, postId: string, path = '/api/like') =>
  t.http.put(`${path}?view=compact`).set('Authorization', user.auth).send({ postId }).expect(200);

async function groupsOf(userId: string) {
  return t.db
    .selectFrom('notifications')
    .select(['id', 'post_id', 'actors_count'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'like')
    .orderBy('post_id')
    .execute();
}

async function likersOf(notificationId: string) {
  const rows = await t.db
    .selectFrom('notification_actors')
    .select('actor_id')
    .where('notification_id', '=', notificationId)
    .orderBy('actor_id')
    .execute();
  return rows.map((row) => row.actor_id);
}

/** What a group written before the rule looked like: the same rows under a random id. */
async function giveRandomId(fromId: string, toId: string) {
  const likers = await t.db
    .selectFrom('notification_actors')
    .selectAll()
    .where('notification_id', '=', fromId)
    .execute();
  await t.db.deleteFrom('notification_actors').where('notification_id', '=', fromId).execute();
  await t.db.updateTable('notifications').set({ id: toId }).where('id', '=', fromId).execute();
  await t.db
    .insertInto('notification_actors')
    .values(likers.map((row) => ({ ...row, notification_id: toId })))
    .execute();
}

it('gives a new like group the id derived from its recipient and post, and the same id when it starts again', async () => {
  const [author, fan] = [await createUser(t), await createUser(t)];
  const post = await createPost(t, author);
  await like(fan, post._id);
  const derived = likeGroupId(author.id, post._id);
  expect(derived).toMatch(/^[0-9a-f]{24}$/);
  expect(await groupsOf(author.id)).toEqual([{ id: derived, post_id: post._id, actors_count: 1 }]);
  await like(fan, post._id, '/api/unlike');
  expect(await groupsOf(author.id)).toEqual([]);
  await like(fan, post._id);
  expect(await groupsOf(author.id)).toEqual([{ id: derived, post_id: post._id, actors_count: 1 }]);
});

it('renames groups written with random ids, keeping their likers, and likes and unlikes work on them after', async () => {
  const [author, ada, bob, cyd] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
  const [first, second] = [await createPost(t, author), await createPost(t, author)];
  await like(ada, first._id);
  await like(bob, first._id);
  await like(ada, second._id);
  const before = await groupsOf(author.id);
  const randomIds = ['0123456789abcdef01234567', '89abcdef0123456789abcdef'];
  for (const [index, group] of before.entries()) await giveRandomId(group.id, randomIds[index]);
  expect((await groupsOf(author.id)).map((group) => group.id).sort()).toEqual(randomIds);

  await deriveLikeGroupIds(t.db);

  const after = await groupsOf(author.id);
  expect(after.map(({ id, post_id, actors_count }) => ({ id, post_id, actors_count }))).toEqual(
    before.map((group) => ({ ...group, id: likeGroupId(author.id, group.post_id!) })),
  );
  const firstId = likeGroupId(author.id, first._id);
  expect(await likersOf(firstId)).toEqual([ada.id, bob.id].sort());
  // Running it again changes nothing.
  await deriveLikeGroupIds(t.db);
  expect(await groupsOf(author.id)).toEqual(after);

  // The renamed group takes a new liker and gives one back by its id.
  await like(cyd, first._id);
  expect(await likersOf(firstId)).toEqual([ada.id, bob.id, cyd.id].sort());
  await like(bob, first._id, '/api/unlike');
  expect(await likersOf(firstId)).toEqual([ada.id, cyd.id].sort());
  const list = await t.http.get('/api/notifications').set('Authorization', author.auth).expect(200);
  expect(list.body.notifications.find((n: { _id: string }) => n._id === firstId)).toMatchObject({
    kind: 'like',
    actorsCount: 2,
  });
});
