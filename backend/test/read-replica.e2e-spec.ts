import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../src/database/database.types';
import { createDatabase } from '../src/database/create-database';
import { migrateToLatest } from '../src/database/migrations';
import { createPost, createUser, type TestUser } from './support/factories';
import { postRow } from './support/post-row-factories';
import { createPostgresSchema } from '@techit/testkit/database-sandbox';
import { startTestApp, TEST_DIALECT, type TestApp } from './support/test-app';

/**
 * DATABASE_READ_URL: visitors' GETs read from the replica, everything else from the primary
 * (docs/decisions/009-read-replica-for-visitors.md). The "replica" here is another schema holding
 * different rows, so where each answer came from shows in the answer itself; it is opened
 * read-only, as a hot standby is, so any write sent to it would fail.
 */
const onPostgres = TEST_DIALECT === 'postgres';
if (!onPostgres) {
  // Not console.log: jest drops the console output of a suite whose tests are all skipped.
  process.stderr.write(
    'read-replica.e2e-spec: the replica suite runs on PostgreSQL only (TEST_DATABASE_URL): SQLite has no read replicas\n',
  );
}

const REPLICA_USER_ID = '5f0000000000000000000001';
const REPLICA_POST_ID = '5f0000000000000000000002';
const AT = '2026-01-01T00:00:00.000Z';

(onPostgres ? describe : describe.skip)('DATABASE_READ_URL (PostgreSQL)', () => {
  let t: TestApp;
  let replica: { url: string; drop(): Promise<void> };
  let replicaDb: Db;
  let replicaDir: string;
  let reader: TestUser;
  let readersPostId: string;

  beforeAll(async () => {
    replica = await createPostgresSchema(process.env.TEST_DATABASE_URL!);
    replicaDir = mkdtempSync(join(tmpdir(), 'techit-replica-'));
    replicaDb = createDatabase({ databaseUrl: replica.url, dataDir: replicaDir }).db;
    // A real replica receives the schema from its primary; this one is migrated the same way.
    await migrateToLatest(replicaDb, 'postgres');
    await replicaDb
      .insertInto('users')
      .values({
        id: REPLICA_USER_ID,
        user_name: 'OnlyOnReplica',
        email: 'only@replica.example',
        email_key: 'only@replica.example',
        password_hash: 'not-a-hash',
        pic: '',
        position: '',
        bio: '',
        theme: 'light',
        role: 'user',
        created_at: AT,
        updated_at: AT,
        token_version: 0,
      })
      .execute();
    await replicaDb
      .insertInto('posts')
      .values(
        postRow({
          id: REPLICA_POST_ID,
          authorId: REPLICA_USER_ID,
          at: AT,
          title: 'Only on the replica',
          description: 'A row the primary does not have',
        }),
      )
      .execute();

    const readOnly = new URL(replica.url);
    readOnly.searchParams.set('options', `${readOnly.searchParams.get('options')} -c default_transaction_read_only=on`);
    t = await startTestApp({ DATABASE_READ_URL: readOnly.toString() });
    reader = await createUser(t);
    readersPostId = (await createPost(t, reader, { title: 'Written through the primary' }))._id;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await replicaDb?.destroy();
    await replica?.drop();
    rmSync(replicaDir, { recursive: true, force: true });
  });

  describe("a visitor's GET", () => {
    it('reads from the replica', async () => {
      const feed = await t.http.get('/api/posts').expect(200);
      expect(feed.body.posts.map((post: { _id: string }) => post._id)).toEqual([REPLICA_POST_ID]);
      const profile = await t.http.get(`/api/user/${REPLICA_USER_ID}`).expect(200);
      expect(profile.body.user.userName).toBe('OnlyOnReplica');
      await t.http.get(`/api/posts/${REPLICA_POST_ID}`).expect(200);
    });

    it("does not see a write until the replica has it (the replica's lag)", async () => {
      await t.http.get(`/api/posts/${readersPostId}`).expect(404);
      await t.http.get(`/api/user/${reader.id}`).expect(404);
    });
  });

  describe("a signed-in user's GET", () => {
    it('reads from the primary, so the user reads their own writes at once', async () => {
      const feed = await t.http.get('/api/posts').set('Authorization', reader.auth).expect(200);
      expect(feed.body.posts.map((post: { _id: string }) => post._id)).toEqual([readersPostId]);
      const post = await t.http.get(`/api/posts/${readersPostId}`).set('Authorization', reader.auth).expect(200);
      expect(post.body.post.title).toBe('Written through the primary');
      await t.http.get(`/api/posts/${REPLICA_POST_ID}`).set('Authorization', reader.auth).expect(404);
    });

    it('sees a like and a comment in the very next read', async () => {
      await t.http.put('/api/like').set('Authorization', reader.auth).send({ postId: readersPostId }).expect(200);
      await t.http
        .put('/api/comment')
        .set('Authorization', reader.auth)
        .send({ postId: readersPostId, text: 'Read back at once' })
        .expect(200);
      const post = await t.http.get(`/api/posts/${readersPostId}`).set('Authorization', reader.auth).expect(200);
      expect(post.body.post.likes).toEqual([reader.id]);
      expect(post.body.post.comments.map((comment: { text: string }) => comment.text)).toEqual(['Read back at once']);
    });

    it('checks the token on the primary: signing out everywhere holds at once, whatever the replica still has', async () => {
      const other = await createUser(t);
      await t.http.get('/api/posts?feed=following').set('Authorization', other.auth).expect(200);
      // The replica lags: it has the account as it was before signing out everywhere.
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', other.id).executeTakeFirstOrThrow();
      await replicaDb.insertInto('users').values(row).execute();
      await t.http.post('/api/logout-all').set('Authorization', other.auth).expect(200);

      // A revoked token on a read is a visitor's, who has no following feed.
      await t.http.get('/api/posts?feed=following').set('Authorization', other.auth).expect(400);
      await t.http.put('/api/bio').set('Authorization', other.auth).send({ bio: 'still me?' }).expect(401);
    });
  });

  describe('writes', () => {
    it('all go to the primary and none to the replica', async () => {
      const author = await createUser(t);
      const post = await createPost(t, author, { title: 'Another primary post' });
      await t.http.put('/api/follow').set('Authorization', author.auth).send({ followId: reader.id }).expect(200);

      const onPrimary = await t.db.selectFrom('posts').select('id').where('id', '=', post._id).execute();
      const onReplica = await replicaDb.selectFrom('posts').select('id').orderBy('id').execute();
      expect(onPrimary).toEqual([{ id: post._id }]);
      expect(onReplica).toEqual([{ id: REPLICA_POST_ID }]);
      expect(await replicaDb.selectFrom('users').select('id').where('id', '=', author.id).execute()).toEqual([]);
      expect(await replicaDb.selectFrom('follows').select('follower_id').execute()).toEqual([]);
    });
  });
});
