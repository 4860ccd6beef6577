import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Comment, DELETED_AUTHOR, DELETED_USER_AUTHOR, type Post } from '@techit/contract/api-types';
import sharp from 'sharp';
import { WRONG_POST_COUNTERS_QUERY } from '@techit/testkit/counter-query';
import { sql } from 'kysely';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { postRow } from './support/post-row-factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';
import { binary, unzip } from './support/zip-reader';

/**
 * Accounts people control (issue 20, docs/decisions/049-accounts-people-control.md): a password
 * change ends every other session, an email change, the data export (once a day) and deleting the
 * account with its content deleted or anonymised, every counter exact.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function upload(): Promise<string> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 80, b: 160 } } })
    .png()
    .toBuffer();
  const response = await t.http
    .post('/api/upload')
    .attach('file', png, { filename: 'x.png', contentType: 'image/png' });
  expect(response.status).toBe(201);
  return response.body.url as string;
}

async function comment(user: TestUser, postId: string, text: string, parentId?: string): Promise<Comment> {
  const response = await t.http
    .put('/api/comment')
    .set('Authorization', user.auth)
    .send({ postId, text, ...(parentId ? { parentId } : {}) })
    .expect(200);
  const comments = (response.body as Post).comments;
  return comments.filter((entry) => entry.text === text).pop()!;
}

async function wrongCounters(): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`${sql.raw(WRONG_POST_COUNTERS_QUERY)}`.execute(t.db);
  return rows.map((row) => row.id);
}

/** Notifications whose actors_count differs from their actor rows: none, when all is well. */
async function wrongNotificationCounters(): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`select n.id from notifications n
    where n.actors_count <> (select count(*) from notification_actors a where a.notification_id = n.id)`.execute(t.db);
  return rows.map((row) => row.id);
}

/** Tag counters equal their rows. */
async function wrongTagCounters(): Promise<string[]> {
  const tags = await t.db.selectFrom('tags').selectAll().execute();
  const wrong: string[] = [];
  for (const tag of tags) {
    const posts = await t.db.selectFrom('post_tags').select('post_id').where('tag', '=', tag.name).execute();
    const followers = await t.db
      .selectFrom('tag_prefs')
      .select('user_id')
      .where('tag', '=', tag.name)
      .where('kind', '=', 'follow')
      .execute();
    if (Number(tag.posts_count) !== posts.length || Number(tag.followers_count) !== followers.length)
      wrong.push(tag.name);
  }
  return wrong;
}

describe('PUT /api/password', () => {
  it('ends every other session and answers a token that keeps this one', async () => {
    const user = await createUser(t);
    const other = await t.http.post('/api/signin').send({ userName: user.userName, password: user.password });
    const otherAuth = `Bearer ${other.body.token as string}`;
    const reply = await t.http
      .put('/api/password')
      .set('Authorization', user.auth)
      .send({ current: user.password, next: 'a brand new passphrase' })
      .expect(200);
    expect(reply.body).toEqual({ message: expect.any(String), token: expect.any(String) });
    await t.http.post('/api/logout-all').set('Authorization', otherAuth).expect(401);
    await t.http.post('/api/logout-all').set('Authorization', user.auth).expect(401);
    const fresh = `Bearer ${reply.body.token as string}`;
    await t.http.get('/api/bookmarks').set('Authorization', fresh).expect(200);
    await t.http.post('/api/signin').send({ userName: user.userName, password: user.password }).expect(401);
    await t.http.post('/api/signin').send({ userName: user.userName, password: 'a brand new passphrase' }).expect(200);
  });

  it('refuses a wrong current password (403) and a new one breaking the sign-up rules (400), changing nothing', async () => {
    const user = await createUser(t);
    await expectDatabaseUnchanged(t.db, async () => {
      const wrong = await t.http
        .put('/api/password')
        .set('Authorization', user.auth)
        .send({ current: 'not my password', next: 'a brand new passphrase' })
        .expect(403);
      expect(wrong.body).toEqual({ error: 'The current password is wrong' });
      const short = await t.http
        .put('/api/password')
        .set('Authorization', user.auth)
        .send({ current: user.password, next: 'short' })
        .expect(400);
      expect(short.body.error).toMatch(/next must be/);
      await t.http.put('/api/password').send({ current: user.password, next: 'a brand new passphrase' }).expect(401);
    });
    await t.http.get('/api/bookmarks').set('Authorization', user.auth).expect(200);
  });
});

describe('PUT /api/email', () => {
  it('changes the email, which then signs in, after the password confirms it', async () => {
    const user = await createUser(t);
    const reply = await t.http
      .put('/api/email')
      .set('Authorization', user.auth)
      .send({ password: user.password, email: `New.${user.email}` })
      .expect(200);
    expect(reply.body).toMatchObject({ _id: user.id, email: `New.${user.email}` });
    await t.http
      .post('/api/signin')
      .send({ userName: `new.${user.email}`, password: user.password })
      .expect(200);
    await t.http.post('/api/signin').send({ userName: user.email, password: user.password }).expect(401);
  });

  it('refuses a taken email (409), a wrong password (403) and a malformed one (400), changing nothing', async () => {
    const [user, other] = [await createUser(t), await createUser(t)];
    await expectDatabaseUnchanged(t.db, async () => {
      const taken = await t.http
        .put('/api/email')
        .set('Authorization', user.auth)
        .send({ password: user.password, email: other.email.toUpperCase() })
        .expect(409);
      expect(taken.body).toEqual({ error: 'An account with that email already exists' });
      await t.http
        .put('/api/email')
        .set('Authorization', user.auth)
        .send({ password: 'wrong password', email: `x${user.email}` })
        .expect(403);
      await t.http
        .put('/api/email')
        .set('Authorization', user.auth)
        .send({ password: user.password, email: 'not an email' })
        .expect(400);
    });
  });
});

describe('POST /api/export', () => {
  it('answers a ZIP of JSON and Markdown of everything, with the images, once a day', async () => {
    const [user, friend] = [await createUser(t), await createUser(t)];
    const photo = await upload();
    const post = await createPost(t, user, {
      title: 'Exported title',
      desc: 'Exported description',
      pic: photo,
      tags: ['exports'],
    });
    const theirs = await createPost(t, friend, { title: 'Their post' });
    await comment(user, theirs._id, 'My exported comment');
    await createNotice(t, user, { desc: 'My exported notice' });
    await t.http.put('/api/like').set('Authorization', user.auth).send({ postId: theirs._id }).expect(200);
    await t.http.put('/api/bookmark').set('Authorization', user.auth).send({ postId: theirs._id }).expect(200);
    await t.http.put('/api/follow').set('Authorization', user.auth).send({ followId: friend.id }).expect(200);
    await t.http
      .post('/api/drafts')
      .set('Authorization', user.auth)
      .send({ kind: 'post', title: 'Draft title', desc: 'Draft words' })
      .expect(201);

    const reply = await t.http
      .post('/api/export')
      .set('Authorization', user.auth)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(reply.headers['content-type']).toBe('application/zip');
    expect(reply.headers['content-disposition']).toMatch(/attachment; filename="techit-.*\.zip"/);
    const files = await unzip(reply.body as Buffer);
    const json = (name: string) => JSON.parse(files.get(`json/${name}.json`)!.toString('utf8')) as unknown;
    expect(json('profile')).toMatchObject({ _id: user.id, userName: user.userName, email: user.email });
    expect(json('posts')).toEqual([
      expect.objectContaining({
        _id: post._id,
        title: 'Exported title',
        desc: 'Exported description',
        photo,
        tags: ['exports'],
      }),
    ]);
    expect(json('comments')).toEqual([
      expect.objectContaining({ postId: theirs._id, postTitle: 'Their post', text: 'My exported comment' }),
    ]);
    expect(json('notices')).toEqual([expect.objectContaining({ desc: 'My exported notice' })]);
    expect(json('likes')).toEqual([expect.objectContaining({ postId: theirs._id, title: 'Their post' })]);
    expect(json('bookmarks')).toEqual([expect.objectContaining({ postId: theirs._id })]);
    expect(json('following')).toEqual([expect.objectContaining({ _id: friend.id, userName: friend.userName })]);
    expect(json('followers')).toEqual([]);
    expect(json('drafts')).toEqual([
      expect.objectContaining({ kind: 'post', fields: expect.objectContaining({ title: 'Draft title' }) }),
    ]);
    const postsMd = files.get('markdown/posts.md')!.toString('utf8');
    expect(postsMd).toContain('## Exported title');
    expect(postsMd).toContain('Exported description');
    expect(files.get('markdown/comments.md')!.toString('utf8')).toContain('My exported comment');
    expect(files.get('markdown/notices.md')!.toString('utf8')).toContain('My exported notice');
    expect(files.get('markdown/drafts.md')!.toString('utf8')).toContain('Draft words');
    const image = files.get(`images/${photo.slice(photo.lastIndexOf('/') + 1)}`);
    expect(image).toBeDefined();
    expect((await sharp(image).metadata()).format).toBe('webp');

    const again = await t.http.post('/api/export').set('Authorization', user.auth).expect(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(again.body).toEqual({ error: expect.stringMatching(/once a day/) });
    // Another user's day is their own.
    await t.http.post('/api/export').set('Authorization', friend.auth).buffer(true).parse(binary).expect(200);
    await t.http.post('/api/export').expect(401);
  });
});

describe('POST /api/export that fails part-way', () => {
  it('cuts the download short when an image cannot be read, and the server goes on', async () => {
    const user = await createUser(t);
    const photo = await upload();
    await createPost(t, user, { pic: photo });
    // The image's file becomes a directory: it opens, and then every read fails (EISDIR).
    const file = join(t.config.dataDir, 'uploads', photo.slice('/uploads/'.length));
    rmSync(file);
    mkdirSync(file);
    const attempt = async () => {
      const reply = await t.http.post('/api/export').set('Authorization', user.auth).buffer(true).parse(binary);
      return unzip(reply.body as Buffer);
    };
    await expect(attempt()).rejects.toThrow();
    await t.http.get('/api/health').expect(200);
  });
});

describe('POST /api/export of a long history', () => {
  it('pages through every row, more than one read batch, each once and in order', async () => {
    const user = await createUser(t);
    const at = new Date().toISOString();
    const ids = Array.from(
      { length: 450 },
      (_, index) => `fe${user.id.slice(2, 12)}${index.toString(16).padStart(12, '0')}`,
    );
    for (let start = 0; start < ids.length; start += 50) {
      await t.db
        .insertInto('posts')
        .values(
          ids
            .slice(start, start + 50)
            .map((id, offset) =>
              postRow({ id, authorId: user.id, at, title: `Old post ${start + offset}`, description: 'From long ago' }),
            ),
        )
        .execute();
    }
    const reply = await t.http
      .post('/api/export')
      .set('Authorization', user.auth)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const files = await unzip(reply.body as Buffer);
    const posts = JSON.parse(files.get('json/posts.json')!.toString('utf8')) as { _id: string }[];
    expect(posts.map((post) => post._id)).toEqual([...ids].sort());
    expect(
      files
        .get('markdown/posts.md')!
        .toString('utf8')
        .match(/^## Old post/gm),
    ).toHaveLength(450);
  });
});

describe('DELETE /api/account', () => {
  /** A user with a post (a picture, a tag, likes and comments from others), comments, a reply with replies, likes and follows. */
  async function busyAccount() {
    const [leaver, alice, bob] = [await createUser(t), await createUser(t), await createUser(t)];
    const photo = await upload();
    const own = await createPost(t, leaver, { title: 'Leaver post', pic: photo, tags: ['leaving'] });
    await t.http.put('/api/tags/leaving/follow').set('Authorization', leaver.auth).expect(200);
    await t.http.put('/api/tags/leaving/follow').set('Authorization', alice.auth).expect(200);
    await t.http.put('/api/like').set('Authorization', alice.auth).send({ postId: own._id }).expect(200);
    await comment(alice, own._id, 'Alice on the leaver post');
    const alicePost = await createPost(t, alice, { title: 'Alice post' });
    await t.http.put('/api/like').set('Authorization', leaver.auth).send({ postId: alicePost._id }).expect(200);
    await t.http.put('/api/like').set('Authorization', bob.auth).send({ postId: alicePost._id }).expect(200);
    const answered = await comment(leaver, alicePost._id, 'Leaver comment with a reply');
    await comment(bob, alicePost._id, 'Bob answers the leaver', answered._id);
    await comment(leaver, alicePost._id, 'Leaver comment alone');
    await comment(bob, alicePost._id, 'Bob comment');
    await createNotice(t, leaver, { desc: 'Leaver notice' });
    await t.http.put('/api/follow').set('Authorization', leaver.auth).send({ followId: alice.id }).expect(200);
    await t.http.put('/api/follow').set('Authorization', bob.auth).send({ followId: leaver.id }).expect(200);
    await t.http.put('/api/bookmark').set('Authorization', leaver.auth).send({ postId: alicePost._id }).expect(200);
    return { leaver, alice, bob, own, alicePost, photo };
  }

  const stored = (url: string) => existsSync(join(t.config.dataDir, 'uploads', url.slice('/uploads/'.length)));

  it('with content "delete": the account and what it wrote go, a comment with replies stays as "[deleted]", counters exact', async () => {
    const { leaver, alice, bob, own, alicePost, photo } = await busyAccount();
    await t.http
      .delete('/api/account')
      .set('Authorization', leaver.auth)
      .send({ password: leaver.password, content: 'delete' })
      .expect(204);
    await t.http.get('/api/bookmarks').set('Authorization', leaver.auth).expect(401);
    await t.http.post('/api/signin').send({ userName: leaver.userName, password: leaver.password }).expect(401);
    await t.http.get(`/api/posts/${own._id}`).expect(404);
    const post = (await t.http.get(`/api/posts/${alicePost._id}`).set('Authorization', alice.auth).expect(200)).body
      .post as Post;
    expect(post.comments.map((entry) => [entry.text, entry.postedBy.userName])).toEqual([
      ['', DELETED_AUTHOR.userName],
      ['Bob answers the leaver', bob.userName],
      ['Bob comment', bob.userName],
    ]);
    expect(post).toMatchObject({ likesCount: 1, commentsCount: 2 });
    expect(post.likes).toEqual([bob.id]);
    const notices = (await t.http.get('/api/allnotices').expect(200)).body as { notices: { desc: string }[] };
    expect(JSON.stringify(notices)).not.toContain('Leaver notice');
    expect(await wrongCounters()).toEqual([]);
    expect(await wrongTagCounters()).toEqual([]);
    // Nothing the leaver caused is left: Alice's like group holds Bob alone, her follow notification went.
    expect(await wrongNotificationCounters()).toEqual([]);
    expect(
      await t.db
        .selectFrom('notification_actors')
        .select('notification_id')
        .where('actor_id', '=', leaver.id)
        .execute(),
    ).toEqual([]);
    const aliceNotes = await t.db
      .selectFrom('notifications')
      .innerJoin('notification_actors', 'notification_actors.notification_id', 'notifications.id')
      .select(['notifications.kind', 'notification_actors.actor_id'])
      .where('notifications.user_id', '=', alice.id)
      .execute();
    // Bob's comment and his reply on her post (a comment notification each), and his like.
    expect(aliceNotes.map((row) => `${row.kind} ${row.actor_id}`).sort()).toEqual(
      [`comment ${bob.id}`, `comment ${bob.id}`, `like ${bob.id}`].sort(),
    );
    const tag = (await t.http.get('/api/tags/leaving').expect(200)).body as {
      tag: { postsCount: number; followersCount: number };
    };
    expect(tag.tag).toMatchObject({ postsCount: 0, followersCount: 1 });
    for (const table of ['likes', 'follows', 'bookmarks', 'tag_prefs', 'drafts'] as const) {
      const column = table === 'follows' ? 'follower_id' : 'user_id';
      expect(await t.db.selectFrom(table).select(column).where(column, '=', leaver.id).execute()).toEqual([]);
    }
    expect(await t.db.selectFrom('users').select('id').where('id', '=', leaver.id).execute()).toEqual([]);
    // Bob followed the leaver; that follow went with the account.
    expect(await t.db.selectFrom('follows').select('followee_id').where('follower_id', '=', bob.id).execute()).toEqual(
      [],
    );
    expect(stored(photo)).toBe(false);
  });

  it('with content "anonymise": the posts, notices and comments stay, shown as by "[deleted user]", counters exact', async () => {
    const { leaver, bob, own, alicePost, photo } = await busyAccount();
    await t.http
      .delete('/api/account')
      .set('Authorization', leaver.auth)
      .send({ password: leaver.password, content: 'anonymise' })
      .expect(204);
    await t.http.post('/api/signin').send({ userName: leaver.userName, password: leaver.password }).expect(401);
    const kept = (await t.http.get(`/api/posts/${own._id}`).expect(200)).body.post as Post;
    expect(kept).toMatchObject({
      title: 'Leaver post',
      postedBy: DELETED_USER_AUTHOR,
      likesCount: 1,
      commentsCount: 1,
    });
    const post = (await t.http.get(`/api/posts/${alicePost._id}`).expect(200)).body.post as Post;
    expect(post.comments.map((entry) => [entry.text, entry.postedBy])).toEqual([
      ['Leaver comment with a reply', DELETED_USER_AUTHOR],
      ['Bob answers the leaver', expect.objectContaining({ _id: bob.id })],
      ['Leaver comment alone', DELETED_USER_AUTHOR],
      ['Bob comment', expect.objectContaining({ _id: bob.id })],
    ]);
    expect(post).toMatchObject({ likesCount: 1, commentsCount: 4 });
    expect(await wrongNotificationCounters()).toEqual([]);
    const notices = (await t.http.get('/api/allnotices').expect(200)).body as {
      notices: { desc: string; postedBy: unknown }[];
    };
    expect(notices.notices.find((notice) => notice.desc === 'Leaver notice')?.postedBy).toEqual(DELETED_USER_AUTHOR);
    expect(await wrongCounters()).toEqual([]);
    expect(await wrongTagCounters()).toEqual([]);
    // Nobody signs in as the placeholder account, finds it, follows it or sees its profile.
    await t.http.post('/api/signin').send({ userName: '[deleted user]', password: 'anything at all' }).expect(401);
    const holder = '000000000000000000000000';
    expect(await t.db.selectFrom('users').select('id').where('id', '=', holder).execute()).toEqual([{ id: holder }]);
    await t.http.get(`/api/user/${holder}`).expect(404);
    await t.http.put('/api/follow').set('Authorization', bob.auth).send({ followId: holder }).expect(404);
    const found = await t.http.get('/api/search').query({ q: 'deleted', type: 'users' }).expect(200);
    expect(found.body.results).toEqual([]);
    expect(stored(photo)).toBe(true);
  });

  it('refuses a wrong password (403) and a content choice it does not know (400), changing nothing', async () => {
    const user = await createUser(t);
    await createPost(t, user);
    await expectDatabaseUnchanged(t.db, async () => {
      const wrong = await t.http
        .delete('/api/account')
        .set('Authorization', user.auth)
        .send({ password: 'not my password', content: 'delete' })
        .expect(403);
      expect(wrong.body).toEqual({ error: 'The password is wrong' });
      const unknown = await t.http
        .delete('/api/account')
        .set('Authorization', user.auth)
        .send({ password: user.password, content: 'archive' })
        .expect(400);
      expect(unknown.body.error).toMatch(/content must be/);
      await t.http.delete('/api/account').send({ password: user.password, content: 'delete' }).expect(401);
    });
    await t.http.get('/api/bookmarks').set('Authorization', user.auth).expect(200);
  });
});
