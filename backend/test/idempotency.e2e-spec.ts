import { randomUUID } from 'node:crypto';
import { requestHash } from '../src/idempotency/idempotency-key';
import { createPost, createUser, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

/**
 * An Idempotency-Key on createpost, createnotice and comment: the same key from the same user
 * within 24 hours returns the first reply and never writes a second row, whether the repeat comes
 * after the first (a retry) or beside it (a double click). See docs/decisions/022-idempotency-keys.md.
 */
jest.setTimeout(60_000);

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});
afterAll(() => t.close());

async function postsBy(author: TestUser): Promise<number> {
  const rows = await t.db.selectFrom('posts').select('id').where('author_id', '=', author.id).execute();
  return rows.length;
}

function createPostWithKey(key: string, body: Record<string, unknown>, as: TestUser = user) {
  return t.http.post('/api/createpost').set('Authorization', as.auth).set('Idempotency-Key', key).send(body);
}

describe('Idempotency-Key on createpost', () => {
  it('answers a repeated request with the first reply, same status, and writes one post', async () => {
    const before = await postsBy(user);
    const key = randomUUID();
    const first = await createPostWithKey(key, { title: 'Once', desc: 'Only once' });
    const again = await createPostWithKey(key, { title: 'Once', desc: 'Only once' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await postsBy(user)).toBe(before + 1);
  });

  it('writes one post when five identical requests arrive at the same moment', async () => {
    const before = await postsBy(user);
    const key = randomUUID();
    const replies = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/createpost',
          headers: { authorization: user.auth, 'idempotency-key': key },
          payload: { title: 'Double click', desc: 'Clicked five times' },
        }),
      ),
    );
    expect(await postsBy(user)).toBe(before + 1);
    // Each is either the first post (made or replayed) or told the first is still in progress.
    const created = replies.filter((reply) => reply.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((reply) => reply.json<{ post: { _id: string } }>().post._id)).size).toBe(1);
    for (const reply of replies.filter((each) => each.statusCode !== 201)) {
      expect(reply.statusCode).toBe(409);
      expect(reply.json()).toEqual({ error: expect.stringMatching(/still in progress/) });
    }
  });

  it('refuses the same key with a different body with 422 and a clear error, writing nothing', async () => {
    const key = randomUUID();
    expect((await createPostWithKey(key, { title: 'First', desc: 'Body' })).status).toBe(201);
    await expectDatabaseUnchanged(t.db, async () => {
      const other = await createPostWithKey(key, { title: 'Second', desc: 'Another body' });
      expect(other.status).toBe(422);
      expect(other.body).toEqual({
        error: expect.stringMatching(/Idempotency-Key was already used for a different request/),
      });
    });
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not printable ASCII', 'clé-unique'],
  ])('refuses a key that is %s with 400, writing nothing', async (_label, key) => {
    await expectDatabaseUnchanged(t.db, async () => {
      const reply = await createPostWithKey(key, { title: 'Bad key', desc: 'Body' });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        error: expect.stringMatching(/Idempotency-Key must be 1 to 255 printable characters/),
      });
    });
  });

  it('accepts a key of exactly 255 printable characters', async () => {
    const key = `${randomUUID()} ~!`.padEnd(255, 'x');
    expect((await createPostWithKey(key, { title: 'Long key', desc: 'Body' })).status).toBe(201);
  });

  it('changes nothing without the header: two identical requests make two posts', async () => {
    const before = await postsBy(user);
    await createPost(t, user, { title: 'Twice', desc: 'On purpose' });
    await createPost(t, user, { title: 'Twice', desc: 'On purpose' });
    expect(await postsBy(user)).toBe(before + 2);
  });

  it('keeps keys apart per user: another user with the same key gets a post of their own', async () => {
    const other = await createUser(t);
    const key = randomUUID();
    const mine = await createPostWithKey(key, { title: 'Mine', desc: 'Body' });
    const theirs = await createPostWithKey(key, { title: 'Mine', desc: 'Body' }, other);
    expect(theirs.status).toBe(201);
    expect(theirs.body.post._id).not.toBe(mine.body.post._id);
    expect(await postsBy(other)).toBe(1);
  });

  it('frees the key of a request that was refused, so the corrected request can use it', async () => {
    const key = randomUUID();
    expect((await createPostWithKey(key, { title: '', desc: 'No title' })).status).toBe(400);
    expect((await createPostWithKey(key, { title: 'Fixed', desc: 'Now with a title' })).status).toBe(201);
  });

  it('answers 409 while the first request with the key is still running, and takes over a claim left by a dead one', async () => {
    const key = randomUUID();
    const body = { title: 'Slow', desc: 'Body' };
    const claim = (createdAt: string) =>
      t.db
        .insertInto('idempotency_keys')
        .values({
          user_id: user.id,
          route: 'POST /api/createpost',
          key,
          request_hash: requestHash('/api/createpost', body),
          created_at: createdAt,
        })
        .onConflict((conflict) => conflict.columns(['user_id', 'route', 'key']).doUpdateSet({ created_at: createdAt }))
        .execute();
    // A request that claimed the key a moment ago and has not finished.
    await claim(new Date().toISOString());
    const busy = await createPostWithKey(key, body);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ error: expect.stringMatching(/still in progress/) });
    // Its process died 6 minutes ago, holding the claim: the key is not lost for a day.
    await claim(new Date(Date.now() - 6 * 60_000).toISOString());
    expect((await createPostWithKey(key, body)).status).toBe(201);
  });

  it('forgets a key after 24 hours: the same request then writes a new post', async () => {
    const key = randomUUID();
    const first = await createPostWithKey(key, { title: 'Day one', desc: 'Body' });
    const dayAgo = new Date(Date.now() - 24 * 3_600_000 - 60_000).toISOString();
    await t.db.updateTable('idempotency_keys').set({ created_at: dayAgo }).where('key', '=', key).execute();
    const before = await postsBy(user);
    const later = await createPostWithKey(key, { title: 'Day one', desc: 'Body' });
    expect(later.status).toBe(201);
    expect(later.body.post._id).not.toBe(first.body.post._id);
    expect(await postsBy(user)).toBe(before + 1);
    // The key now answers with the new post.
    expect((await createPostWithKey(key, { title: 'Day one', desc: 'Body' })).body).toEqual(later.body);
  });
});

describe('Idempotency-Key on createnotice and comment', () => {
  it('writes one notice for a repeated createnotice, replying the first notice with 201', async () => {
    const key = randomUUID();
    const send = () =>
      t.http
        .post('/api/createnotice')
        .set('Authorization', user.auth)
        .set('Idempotency-Key', key)
        .send({ desc: 'Meetup on Friday', tags: [], links: [] });
    const [first, again] = [await send(), await send()];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    const rows = await t.db.selectFrom('notices').select('id').where('description', '=', 'Meetup on Friday').execute();
    expect(rows).toHaveLength(1);
  });

  it('writes one comment for repeated and simultaneous comment requests, replying 200', async () => {
    const post = await createPost(t, user);
    const key = randomUUID();
    const send = () =>
      t.app.inject({
        method: 'PUT',
        url: '/api/comment',
        headers: { authorization: user.auth, 'idempotency-key': key },
        payload: { postId: post._id, text: 'Nice one' },
      });
    const together = await Promise.all([send(), send(), send()]);
    const after = await send();
    expect(together.some((reply) => reply.statusCode === 200)).toBe(true);
    expect(together.every((reply) => reply.statusCode === 200 || reply.statusCode === 409)).toBe(true);
    expect(after.statusCode).toBe(200);
    const rows = await t.db.selectFrom('comments').select('id').where('post_id', '=', post._id).execute();
    expect(rows).toHaveLength(1);
  });
});
