import { Client } from 'pg';
import { createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, TEST_DIALECT, type TestApp } from './support/test-app';

/**
 * DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL cancels a statement that runs longer, and the client
 * gets a clean 503 { error } instead of a request that hangs or a 500.
 *
 * The slow statement is made slow the way it happens in production and the same way on any
 * machine: another session holds a lock the app's statement must wait for (a long migration, an
 * operator's transaction). A query made slow by its data alone would finish in time on a fast
 * machine and be slow anyway on a loaded one.
 */
const onPostgres = TEST_DIALECT === 'postgres';
if (!onPostgres) {
  // Not console.log: jest drops the console output of a suite whose tests are all skipped.
  process.stderr.write(
    'statement-timeout.e2e-spec: runs on PostgreSQL only (TEST_DATABASE_URL): SQLite runs each query in-process and has no statement timeout\n',
  );
}

const TIMEOUT_MS = 1_500;
/** Kysely's Migrator takes this PostgreSQL advisory lock while it migrates (kysely/dist/…/postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

async function session(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

(onPostgres ? describe : describe.skip)('DATABASE_STATEMENT_TIMEOUT_MS (PostgreSQL)', () => {
  describe('a statement over the timeout', () => {
    let t: TestApp;
    let author: TestUser;
    let postId: string;
    let other: Client;

    beforeAll(async () => {
      t = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) });
      author = await createUser(t);
      postId = (await createPost(t, author))._id;
      other = await session(t.config.databaseUrl!);
    });

    afterAll(async () => {
      await other?.end();
      await t?.close();
    });

    it('answers a read 503 { error } once the timeout has passed, and the same read succeeds when nothing blocks it', async () => {
      await other.query('BEGIN');
      await other.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
      const started = performance.now();
      try {
        const response = await t.http.get('/api/posts');
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ error: 'The server took too long to answer; please try again' });
        // PostgreSQL cancels at the timeout, never before it.
        expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      } finally {
        await other.query('ROLLBACK');
      }
      const response = await t.http.get('/api/posts').expect(200);
      expect(response.body.posts.map((post: { _id: string }) => post._id)).toEqual([postId]);
    });

    it('answers a write 503 and leaves nothing half-done: the like can be sent again and counts once', async () => {
      const fan = await createUser(t);
      await other.query('BEGIN');
      await other.query('SELECT id FROM posts WHERE id = $1 FOR UPDATE', [postId]);
      try {
        const response = await t.http.put('/api/like').set('Authorization', fan.auth).send({ postId });
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ error: expect.any(String) });
      } finally {
        await other.query('ROLLBACK');
      }
      const before = await t.db.selectFrom('likes').select('user_id').where('post_id', '=', postId).execute();
      expect(before).toEqual([]);

      const retried = await t.http.put('/api/like').set('Authorization', fan.auth).send({ postId }).expect(200);
      expect(retried.body.likesCount).toBe(1);
      const post = await t.db.selectFrom('posts').select('likes_count').where('id', '=', postId).executeTakeFirst();
      expect(Number(post?.likes_count)).toBe(1);
    });
  });

  describe('migrations', () => {
    it('run without the timeout: an instance that waits for another one migrating still starts', async () => {
      // The lock is the one every TechIt instance (and test) on this server takes to migrate, so it
      // is held briefly: long enough to outlast a 300 ms timeout several times over.
      const holder = await session(process.env.TEST_DATABASE_URL!);
      const held = 1_500;
      let t: TestApp | undefined;
      try {
        await holder.query(`SELECT pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
        const release = new Promise<void>((resolve, reject) => {
          setTimeout(() => {
            holder.query(`SELECT pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`).then(() => resolve(), reject);
          }, held);
        });
        const started = performance.now();
        t = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });
        const waited = performance.now() - started;
        await release;
        expect(waited).toBeGreaterThanOrEqual(held - 50);
        await t.http.get('/api/posts').expect(200);
      } finally {
        await t?.close();
        await holder.end();
      }
    });
  });
});
