import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageVariant } from '@techit/contract/image-variants';
import { POST_COUNTERS_QUERY, type PostCountersRow } from '@techit/testkit/counter-query';
import { runOnPostgres } from '@techit/testkit/database-sandbox';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import sharp from 'sharp';
import * as tar from 'tar';
import { runBackupCommand, runRestoreCommand } from '../src/backup/backup-commands';
import { LOCAL_UPLOAD_URL } from '../src/common/url-rules';
import { createDatabase, SQLITE_FILE } from '../src/database/create-database';
import type { Db } from '../src/database/database.types';
import { migrationNames } from '../src/database/migrations';
import { createDraft } from './support/draft-factories';
import { createPost, createUser, type TestUser } from './support/factories';
import { snapshot, startTestApp, TEST_DIALECT, type TestApp } from './support/test-app';

const TABLES = ['users', 'follows', 'posts', 'likes', 'comments', 'notices', 'drafts'];

/** What a CLI run printed, and its exit code. */
interface Run {
  code: number;
  out: string[];
  err: string[];
}

async function backup(file: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const run: Run = { code: -1, out: [], err: [] };
  run.code = await runBackupCommand([file], env, { log: (l) => run.out.push(l), error: (l) => run.err.push(l) });
  return run;
}

async function restore(file: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const run: Run = { code: -1, out: [], err: [] };
  run.code = await runRestoreCommand([file], env, { log: (l) => run.out.push(l), error: (l) => run.err.push(l) });
  return run;
}

/** The settings the CLI would read for the running test app (its DATA_DIR and database). */
function envOf(t: TestApp): NodeJS.ProcessEnv {
  return { DATA_DIR: t.config.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
}

let colour = 0;
async function upload(t: TestApp): Promise<string> {
  colour += 1;
  const png = await sharp({
    create: { width: 48, height: 32, channels: 3, background: { r: colour % 256, g: 9, b: 99 } },
  })
    .png()
    .toBuffer();
  const response = await t.http
    .post('/api/upload')
    .attach('file', png, { filename: 'x.png', contentType: 'image/png' });
  if (response.status !== 201) throw new Error(`upload failed: ${response.status}`);
  return response.body.url as string;
}

/** A target to restore into: a fresh DATA_DIR and, on PostgreSQL, a fresh database. */
interface Target {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  drop(): Promise<void>;
}

async function freshTarget(live: TestApp): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'techit-restore-'));
  if (!live.config.databaseUrl) {
    return { env: { DATA_DIR: dataDir }, dataDir, drop: () => Promise.resolve(rmSync(dataDir, { recursive: true })) };
  }
  // A PostgreSQL backup restores into the schema it was taken from: here, the same schema name
  // in another, new database.
  const server = process.env.TEST_DATABASE_URL!;
  const name = `techit_restore_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  await runOnPostgres(server, `CREATE DATABASE ${name}`);
  const url = new URL(live.config.databaseUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    async drop() {
      await runOnPostgres(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app started on a restored DATA_DIR and database. */
function startOn(target: Target): Promise<TestApp> {
  return startTestApp({
    DATA_DIR: target.dataDir,
    ...(target.env.DATABASE_URL ? { DATABASE_URL: target.env.DATABASE_URL } : {}),
  });
}

/** Every table of the schema, read row by row: a damaged page or index fails here. */
async function readEveryTable(db: Db): Promise<Record<string, number>> {
  const names =
    TEST_DIALECT === 'sqlite'
      ? (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(db)).rows
      : (
          await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = current_schema()`.execute(db)
        ).rows;
  const counts: Record<string, number> = {};
  for (const { name } of names) {
    counts[name] = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db)).rows.length;
  }
  return counts;
}

type Ack =
  | { kind: 'user'; userName: string }
  | { kind: 'post'; id: string; photo: string }
  | { kind: 'like'; postId: string; userId: string }
  | { kind: 'comment'; postId: string; text: string };

/**
 * Writers that keep signing up, posting (with and without pictures), liking and commenting until
 * stopped; every write the server acknowledged (2xx) is recorded in order.
 */
function startWriteLoad(t: TestApp, users: TestUser[], postIds: string[]) {
  const acks: Ack[] = [];
  let stopped = false;
  let step = 0;
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];
  const writer = async (): Promise<void> => {
    while (!stopped) {
      step += 1;
      const user = pick(users);
      switch (step % 5) {
        case 0: {
          const userName = `load${step}_${process.pid}`;
          const reply = await t.http
            .post('/api/signup')
            .send({ userName, email: `${userName}@example.com`, password: 'correct horse battery' });
          if (reply.status === 201) acks.push({ kind: 'user', userName });
          break;
        }
        case 1:
        case 2: {
          const photo = step % 5 === 1 ? await upload(t) : '';
          const reply = await t.http
            .post('/api/createpost')
            .set('Authorization', user.auth)
            .send({ title: `Load ${step}`, desc: 'Written under load', ...(photo ? { pic: photo } : {}) });
          if (reply.status === 201) {
            postIds.push(reply.body.post._id as string);
            acks.push({ kind: 'post', id: reply.body.post._id as string, photo });
          }
          break;
        }
        case 3: {
          const postId = pick(postIds);
          const reply = await t.http.put('/api/like').set('Authorization', user.auth).send({ postId });
          if (reply.status === 200) acks.push({ kind: 'like', postId, userId: user.id });
          break;
        }
        default: {
          const postId = pick(postIds);
          const text = `comment ${step} under load`;
          const reply = await t.http.put('/api/comment').set('Authorization', user.auth).send({ postId, text });
          if (reply.status === 200) acks.push({ kind: 'comment', postId, text });
        }
      }
    }
  };
  const writers = [writer(), writer(), writer()];
  return {
    acks,
    async until(count: number): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (acks.length < count && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
      if (acks.length < count) throw new Error(`only ${acks.length} writes were acknowledged`);
    },
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(writers);
    },
  };
}

/**
 * A running app with a few users, each with an uploaded avatar, a post with a picture and a draft
 * of its edit (drafts are user content: a backup holds them).
 */
async function startLiveApp(): Promise<{ live: TestApp; users: TestUser[]; postIds: string[] }> {
  const live = await startTestApp();
  const users: TestUser[] = [];
  for (let i = 0; i < 4; i += 1) users.push(await createUser(live, { pic: await upload(live) }));
  const postIds: string[] = [];
  for (const user of users) postIds.push((await createPost(live, user, { pic: await upload(live) }))._id);
  for (const [index, user] of users.entries()) await createDraft(live, user, { postId: postIds[index], body: 'edit' });
  return { live, users, postIds };
}

// Each describe has its own live app, started after the previous one closed: passport keeps one
// JWT strategy per process, so the app started last checks the tokens of every app in it.
describe('npm run backup under write load, then npm run restore', () => {
  let live: TestApp;
  let users: TestUser[];
  let postIds: string[];
  let work: string;
  beforeAll(async () => {
    ({ live, users, postIds } = await startLiveApp());
    work = mkdtempSync(join(tmpdir(), 'techit-backups-'));
  });
  afterAll(async () => {
    await live.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('backs up under write load and restores a sound database with every acknowledged write, exact counters and served images', async () => {
    const load = startWriteLoad(live, users, postIds);
    let acknowledgedBefore: Ack[];
    let taken: Run;
    try {
      await load.until(30);
      // Only writes answered before the backup began must be in it; later ones may or may not be.
      acknowledgedBefore = [...load.acks];
      taken = await backup(join(work, 'under-load.tar.gz'), envOf(live));
      const afterBackup = load.acks.length;
      // The writers were not idle: writes were answered while the backup was being taken.
      expect(afterBackup).toBeGreaterThan(acknowledgedBefore.length);
      await load.until(afterBackup + 10);
    } finally {
      await load.stop();
    }
    expect(taken.err).toEqual([]);
    expect(taken.code).toBe(0);
    expect(acknowledgedBefore.filter((ack) => ack.kind === 'post' && ack.photo).length).toBeGreaterThan(0);

    const target = await freshTarget(live);
    let restored: TestApp | undefined;
    try {
      const put = await restore(join(work, 'under-load.tar.gz'), target.env);
      expect(put.err).toEqual([]);
      expect(put.code).toBe(0);

      if (TEST_DIALECT === 'sqlite') {
        const file = new SQLite(join(target.dataDir, SQLITE_FILE), { readonly: true });
        try {
          expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
          expect(file.pragma('foreign_key_check')).toEqual([]);
        } finally {
          file.close();
        }
      }
      restored = await startOn(target);
      const db = restored.db;
      const counts = await readEveryTable(db);
      expect(Object.keys(counts)).toEqual(expect.arrayContaining([...TABLES, 'kysely_migration']));
      for (const table of ['users', 'posts', 'likes', 'comments', 'drafts']) expect(counts[table]).toBeGreaterThan(0);
      const applied = await db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect((applied as { name: string }[]).map((row) => row.name).sort()).toEqual(migrationNames());

      // Every acknowledged write from before the backup is there.
      const names = new Set((await db.selectFrom('users').select('user_name').execute()).map((r) => r.user_name));
      const posts = new Map(
        (await db.selectFrom('posts').select(['id', 'photo']).execute()).map((r) => [r.id, r.photo]),
      );
      const likes = new Set(
        (await db.selectFrom('likes').select(['post_id', 'user_id']).execute()).map((r) => `${r.post_id}:${r.user_id}`),
      );
      const comments = new Set(
        (await db.selectFrom('comments').select(['post_id', 'text']).execute()).map((r) => `${r.post_id}:${r.text}`),
      );
      for (const user of users) expect(names.has(user.userName)).toBe(true);
      for (const ack of acknowledgedBefore) {
        if (ack.kind === 'user') expect(names.has(ack.userName)).toBe(true);
        if (ack.kind === 'post') expect(posts.get(ack.id)).toBe(ack.photo);
        if (ack.kind === 'like') expect(likes.has(`${ack.postId}:${ack.userId}`)).toBe(true);
        if (ack.kind === 'comment') expect(comments.has(`${ack.postId}:${ack.text}`)).toBe(true);
      }

      // Every counter equals the rows it counts.
      const counters = await sql.raw<PostCountersRow>(POST_COUNTERS_QUERY).execute(db);
      expect(counters.rows.length).toBe(posts.size);
      for (const row of counters.rows) {
        expect([row.id, Number(row.likes_count), Number(row.comments_count), Number(row.commenters_count)]).toEqual([
          row.id,
          Number(row.likes),
          Number(row.comments),
          Number(row.commenters),
        ]);
      }

      // Every image a restored row shows is there, with its variants, and served.
      const pictures = new Set(
        [...(await db.selectFrom('users').select('pic').execute()).map((r) => r.pic), ...posts.values()].filter((url) =>
          LOCAL_UPLOAD_URL.test(url),
        ),
      );
      expect(pictures.size).toBeGreaterThanOrEqual(users.length * 2);
      for (const url of pictures) {
        for (const variant of ['full', 'card', 'avatar'] as const) {
          const served = await restored.http.get(imageVariant(url, variant).src).expect(200);
          expect(served.headers['content-type']).toBe('image/webp');
        }
      }
      // Signing in works on the restored accounts (password hashes came back intact).
      await restored.http
        .post('/api/signin')
        .send({ userName: users[0].userName, password: users[0].password })
        .expect(200);
    } finally {
      await restored?.close();
      await target.drop();
    }
  }, 120_000);
});

describe('npm run backup and npm run restore', () => {
  let live: TestApp;
  let users: TestUser[];
  let work: string;
  beforeAll(async () => {
    ({ live, users } = await startLiveApp());
    work = mkdtempSync(join(tmpdir(), 'techit-backups-'));
  });
  afterAll(async () => {
    await live.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes a manifest naming the format, the database, the schema version and every image', async () => {
    const file = join(work, 'manifest.tar.gz');
    expect((await backup(file, envOf(live))).code).toBe(0);
    const unpacked = mkdtempSync(join(work, 'unpacked-'));
    await tar.extract({ file, cwd: unpacked });
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      format: 'techit-backup',
      formatVersion: 1,
      dialect: TEST_DIALECT,
      schemaVersion: migrationNames().at(-1),
      database: { file: TEST_DIALECT === 'sqlite' ? 'database/techit.sqlite' : 'database/techit.pgdump' },
      images: { storage: 'disk', directory: 'uploads' },
    });
    expect(new Date(manifest.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(manifest.images.count).toBe(manifest.images.files.length);
    for (const name of manifest.images.files) expect(existsSync(join(unpacked, 'uploads', name))).toBe(true);
    expect(existsSync(join(unpacked, manifest.database.file))).toBe(true);
  });

  it('refuses a backup of the other database, and changes nothing', async () => {
    const file = join(work, 'dialect.tar.gz');
    expect((await backup(file, envOf(live))).code).toBe(0);
    const dataDir = mkdtempSync(join(work, 'other-dialect-'));
    // The dialect is decided before any connection: this URL is never dialled.
    const env: NodeJS.ProcessEnv =
      TEST_DIALECT === 'sqlite'
        ? { DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }
        : { DATA_DIR: dataDir };

    const run = await restore(file, env);

    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(
      TEST_DIALECT === 'sqlite'
        ? /This is a SQLite backup but the server is configured for PostgreSQL/
        : /This is a PostgreSQL backup but the server is configured for SQLite/,
    );
    expect(existsSync(join(dataDir, SQLITE_FILE))).toBe(false);
    expect(existsSync(join(dataDir, 'uploads'))).toBe(false);
  });

  it('refuses a file that is not a backup, and a backup from a newer schema', async () => {
    const before = await snapshot(live.db);
    const garbage = join(work, 'garbage.tar.gz');
    writeFileSync(garbage, 'this is not a tar file at all');
    const notBackup = await restore(garbage, envOf(live));
    expect(notBackup.code).toBe(1);
    expect(notBackup.err.join('\n')).toMatch(/not a readable TechIt backup/);

    const file = join(work, 'newer.tar.gz');
    expect((await backup(file, envOf(live))).code).toBe(0);
    const unpacked = mkdtempSync(join(work, 'newer-'));
    await tar.extract({ file, cwd: unpacked });
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    writeFileSync(
      join(unpacked, 'manifest.json'),
      JSON.stringify({ ...manifest, schemaVersion: '2999-01-01T00-00-00-future' }),
    );
    await tar.create({ gzip: true, file, cwd: unpacked }, ['manifest.json', 'database', 'uploads']);
    const target = await freshTarget(live);
    try {
      const newer = await restore(file, target.env);
      expect(newer.code).toBe(1);
      expect(newer.err.join('\n')).toMatch(/newer than this TechIt knows: upgrade TechIt, then restore/);
    } finally {
      await target.drop();
    }
    expect(await snapshot(live.db)).toBe(before);
  });

  it('restores over an existing database, replacing its rows and its images', async () => {
    const older = join(work, 'older.tar.gz');
    expect((await backup(older, envOf(live))).code).toBe(0);
    const photo = await upload(live);
    const extra = await createPost(live, users[0], { pic: photo });
    const newer = join(work, 'newer-data.tar.gz');
    expect((await backup(newer, envOf(live))).code).toBe(0);
    const target = await freshTarget(live);
    const postIdsIn = async (): Promise<string[]> => {
      const { db } = createDatabase({ dataDir: target.dataDir, databaseUrl: target.env.DATABASE_URL ?? null });
      try {
        return (await db.selectFrom('posts').select('id').execute()).map((row) => row.id);
      } finally {
        await db.destroy();
      }
    };
    const photoFile = join(target.dataDir, 'uploads', photo.slice('/uploads/'.length));
    try {
      expect((await restore(newer, target.env)).code).toBe(0);
      expect(await postIdsIn()).toContain(extra._id);
      expect(existsSync(photoFile)).toBe(true);

      const again = await restore(older, target.env);

      expect(again.err).toEqual([]);
      expect(again.code).toBe(0);
      expect(await postIdsIn()).not.toContain(extra._id);
      expect(existsSync(photoFile)).toBe(false);
    } finally {
      await target.drop();
    }
  });

  it('refuses to write a backup into the uploads folder, which is served to anyone', async () => {
    const file = join(live.config.dataDir, 'uploads', 'leak.tar.gz');

    const run = await backup(file, envOf(live));

    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(/outside DATA_DIR\/uploads/);
    expect(existsSync(file)).toBe(false);
    await live.http.get('/uploads/leak.tar.gz').expect(404);
  });

  it('prints the usage and exits 2 without a file', async () => {
    const run: Run = { code: -1, out: [], err: [] };
    run.code = await runBackupCommand([], envOf(live), { log: (l) => run.out.push(l), error: (l) => run.err.push(l) });
    expect(run).toEqual({ code: 2, out: [], err: ['Usage: npm run backup -- <file.tar.gz>'] });
  });

  if (TEST_DIALECT === 'sqlite') {
    it('refuses to restore while a server has the SQLite database open, and changes nothing', async () => {
      const file = join(work, 'busy.tar.gz');
      expect((await backup(file, envOf(live))).code).toBe(0);
      const before = await snapshot(live.db);
      await createPost(live, users[0]);
      const withNewPost = await snapshot(live.db);
      expect(withNewPost).not.toBe(before);

      const run = await restore(file, envOf(live));

      expect(run.code).toBe(1);
      expect(run.err.join('\n')).toMatch(/is in use: stop the server first/);
      expect(await snapshot(live.db)).toBe(withNewPost);
    });
  } else {
    it('refuses to restore into a schema other than the one backed up', async () => {
      const file = join(work, 'schema.tar.gz');
      expect((await backup(file, envOf(live))).code).toBe(0);
      const target = await freshTarget(live);
      try {
        const url = new URL(target.env.DATABASE_URL!);
        url.searchParams.set('options', '-c search_path=somewhere_else');

        const run = await restore(file, { ...target.env, DATABASE_URL: url.toString() });

        expect(run.code).toBe(1);
        expect(run.err.join('\n')).toMatch(
          /This backup holds schema "techit_test_\w+" but DATABASE_URL works in "somewhere_else"/,
        );
      } finally {
        await target.drop();
      }
    });
  }
});
