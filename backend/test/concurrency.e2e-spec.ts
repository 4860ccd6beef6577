import { createPost, createUser, type TestUser } from './support/factories';
import { seededRandom } from './support/seeded-random';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Many people pressing the same button at once: every request is answered, the counter equals
 * the rows, and each person ends where their own last click put them. Each user's clicks are
 * sequential (one browser tab); the users run side by side in a shuffled interleaving.
 */
jest.setTimeout(120_000);

const USERS = 50;
const CLICKS = 20;

let t: TestApp;
let users: TestUser[];
let author: TestUser;

beforeAll(async () => {
  // This suite is about races, not abuse limits: 2,000 writes from one address in a minute.
  t = await startTestApp({ RATE_LIMITS: 'off' });
  users = await Promise.all(Array.from({ length: USERS }, () => createUser(t)));
  author = await createUser(t);
});
afterAll(() => t.close());

/**
 * Runs CLICKS random on/off requests per user, all users concurrently, and returns what each
 * user last asked for (every request must succeed, so that is also what they were told).
 */
async function clickConcurrently(send: (user: TestUser, on: boolean) => Promise<{ statusCode: number }>) {
  const last = new Map<string, boolean>();
  await Promise.all(
    users.map(async (user, index) => {
      const random = seededRandom(index + 1);
      for (let click = 0; click < CLICKS; click += 1) {
        const on = random() < 0.5;
        const reply = await send(user, on);
        if (reply.statusCode !== 200) throw new Error(`${user.userName}'s click ${click} got ${reply.statusCode}`);
        last.set(user.id, on);
        // A pause now and then reshuffles the interleaving from click to click.
        if (random() < 0.3) await new Promise((wake) => setTimeout(wake, Math.floor(random() * 4)));
      }
    }),
  );
  return last;
}

/**
 * Straight into Fastify (no socket per request): the full pipeline, guard, validation, service
 * and transaction, without the HTTP client's overhead multiplied by 2,000.
 */
function put(url: string, user: TestUser, payload: Record<string, string>) {
  return t.app.inject({ method: 'PUT', url, headers: { authorization: user.auth }, payload });
}

function idsWhere(last: Map<string, boolean>, on: boolean): string[] {
  return [...last].filter(([, value]) => value === on).map(([id]) => id);
}

describe('PUT /api/like and /api/unlike, concurrently', () => {
  it('50 users liking and unliking one post 20 times each: likesCount equals the rows, each user as last asked', async () => {
    const post = await createPost(t, author);
    const last = await clickConcurrently((user, on) =>
      put(on ? '/api/like' : '/api/unlike', user, { postId: post._id }),
    );

    const rows = await t.db.selectFrom('likes').select('user_id').where('post_id', '=', post._id).execute();
    const likers = idsWhere(last, true).sort();
    expect(rows.map((row) => row.user_id).sort()).toEqual(likers);
    const stored = await t.db.selectFrom('posts').select('likes_count').where('id', '=', post._id).executeTakeFirst();
    expect(Number(stored?.likes_count)).toBe(rows.length);

    for (const user of users) {
      const reply = await t.http.get(`/api/posts/${post._id}?view=compact`).set('Authorization', user.auth);
      expect(reply.body.post.likesCount).toBe(likers.length);
      expect(reply.body.post.likes).toEqual(last.get(user.id) ? [user.id] : []);
    }
    const full = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect([...full.body.post.likes].sort()).toEqual(likers);
    expect(full.body.post.likesCount).toBe(likers.length);
  });
});

describe('PUT /api/follow and /api/unfollow, concurrently', () => {
  it('50 users following and unfollowing one user 20 times each: each user as last asked', async () => {
    const followed = author;
    const last = await clickConcurrently((user, on) =>
      put(on ? '/api/follow' : '/api/unfollow', user, on ? { followId: followed.id } : { unfollowId: followed.id }),
    );

    const rows = await t.db
      .selectFrom('follows')
      .select('follower_id')
      .where('followee_id', '=', followed.id)
      .execute();
    const followers = idsWhere(last, true).sort();
    expect(rows.map((row) => row.follower_id).sort()).toEqual(followers);

    const profile = await t.http.get(`/api/user/${followed.id}`);
    expect([...profile.body.user.followers].sort()).toEqual(followers);
    for (const user of users) {
      const reply = await t.http.get(`/api/user/${user.id}`);
      expect(reply.body.user.following).toEqual(last.get(user.id) ? [followed.id] : []);
    }
  });
});
