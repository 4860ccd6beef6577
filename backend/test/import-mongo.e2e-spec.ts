import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { hash as bcryptHash } from 'bcryptjs';
import { sql } from 'kysely';
import { RENDERER_VERSION } from '../src/markdown/markdown-renderer';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import { WRONG_POST_COUNTERS_QUERY } from '@techit/testkit/counter-query';
import type { Db } from '../src/database/database.types';
import { migrateToLatest } from '../src/database/migrations';
import { MongoImportError } from '../src/import/mongo-import-error';
import { LOCKED_PASSWORD_HASH } from '../src/import/mongo-import.planner';
import { importMongoExport, type MongoImportSummary } from '../src/import/run-mongo-import';
import { createServerData, type ServerData } from './support/server-process';
import { expectDatabaseUnchanged, snapshot, startTestApp, type TestApp } from './support/test-app';

// The built CLI, beside the server that TEST_SERVER_MAIN may point at (a copy a concurrent build cannot remove).
const CLI = resolve(
  process.env.TEST_SERVER_MAIN ? dirname(process.env.TEST_SERVER_MAIN) : resolve(__dirname, '../dist'),
  'import/import-mongo.cli.js',
);

/** An ObjectId made at `iso`, as MongoDB would have: its first four bytes are that second. */
function oid(iso: string, n: number): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  return seconds.toString(16).padStart(8, '0') + 'a1b2c3d4e5' + n.toString(16).padStart(6, '0');
}

/** Marks a value mongoexport writes as {"$oid": …}. */
class Oid {
  constructor(readonly hex: string) {}
}
const ref = (hex: string): Oid => new Oid(hex);

/** Extended JSON v2 as mongoexport writes it: canonical ($numberLong dates, wrapped ints) or relaxed. */
function extendedJson(value: unknown, mode: 'canonical' | 'relaxed'): unknown {
  if (value instanceof Oid) return { $oid: value.hex };
  if (value instanceof Date) {
    return mode === 'canonical' ? { $date: { $numberLong: String(value.getTime()) } } : { $date: value.toISOString() };
  }
  if (typeof value === 'number' && mode === 'canonical') return { $numberInt: String(value) };
  if (Array.isArray(value)) return value.map((item) => extendedJson(item, mode));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, extendedJson(item, mode)]));
  }
  return value;
}

type Layout = { mode: 'canonical' | 'relaxed'; array: boolean };

function writeExport(folder: string, collections: Record<string, object[]>, layouts: Record<string, Layout>): void {
  mkdirSync(folder, { recursive: true });
  for (const [name, docs] of Object.entries(collections)) {
    const { mode, array } = layouts[name];
    const encoded = docs.map((doc) => JSON.stringify(extendedJson(doc, mode)));
    // mongoexport --jsonArray writes "[" doc "," doc … "]"; without it, one document per line.
    writeFileSync(join(folder, `${name}.json`), array ? `[${encoded.join(',\n')}]\n` : `${encoded.join('\n')}\n`);
  }
}

// The original's users, oldest first. DUPE signed up later with ADA's name in other letter case.
const ADA = oid('2021-01-05T10:00:00Z', 1);
const BOB = oid('2021-02-05T10:00:00Z', 2);
const CY = oid('2021-03-05T10:00:00Z', 3);
const DUPE = oid('2021-04-05T10:00:00Z', 4);
const GHOST = oid('2021-05-05T10:00:00Z', 5); // referenced, but not in the export
const P1 = oid('2022-01-10T08:00:00Z', 11);
const P2 = oid('2022-02-10T08:00:00Z', 12);
const P3 = oid('2022-03-10T08:00:00Z', 13);
const P4 = oid('2022-04-10T08:00:00Z', 14);
const C1 = oid('2022-01-11T09:00:00Z', 21);
const C2 = oid('2022-01-12T09:00:00Z', 22);
const C3 = oid('2022-01-13T09:00:00Z', 23);
const C4 = oid('2022-04-11T09:00:00Z', 24);
const C5 = oid('2022-04-12T09:00:00Z', 25);
const N1 = oid('2022-05-01T12:00:00Z', 31);
const N2 = oid('2022-06-01T12:00:00Z', 32);
const NC = oid('2022-05-02T12:00:00Z', 33);

const ADA_PASSWORD = 'ada original password';
const BOB_PASSWORD = 'bob original password';
const P1_CREATED = new Date('2022-01-10T08:00:01.250Z');
const P2_CREATED = new Date('2022-02-10T08:00:00.000Z');
const P2_UPDATED = new Date('2022-02-11T08:30:00.000Z');
const LONG_TITLE = 'T'.repeat(100);

async function originalExport(): Promise<Record<string, object[]>> {
  // bcryptjs 2.x, which the original used, wrote $2a$; PHP and others write $2y$. Same algorithm.
  const adaHash = (await bcryptHash(ADA_PASSWORD, 10)).replace(/^\$2b\$/, '$2a$');
  const bobHash = (await bcryptHash(BOB_PASSWORD, 10)).replace(/^\$2b\$/, '$2y$');
  const dupeHash = await bcryptHash('dupe password', 4);
  const users = [
    {
      _id: ref(ADA),
      userName: 'ada',
      email: 'Ada@Example.com',
      password: adaHash,
      pic: 'https://res.cloudinary.com/techit/image/upload/v1/ada.png',
      position: 'Engineer',
      bio: 'Writes compilers',
      followers: [ref(BOB), ref(BOB), ref(GHOST)],
      following: [ref(BOB), ref(CY)],
      theme: 'dark',
      __v: 0,
    },
    {
      _id: ref(BOB),
      userName: 'bob',
      email: 'bob@example.com',
      password: bobHash,
      pic: '',
      position: 'P'.repeat(50),
      bio: '',
      followers: [ref(ADA)],
      following: [ref(ADA), ref(ADA)],
      theme: 'light',
      __v: 0,
    },
    {
      _id: ref(CY),
      userName: 'cy',
      email: 'cy@example.com',
      password: 'stored in plain text',
      pic: 'javascript:alert(1)',
      position: '',
      bio: '',
      followers: [ref(ADA)],
      following: [ref(BOB)],
      theme: 'light',
      __v: 0,
    },
    {
      _id: ref(DUPE),
      userName: 'ADA',
      email: 'someone-else@example.com',
      password: dupeHash,
      pic: '',
      position: '',
      bio: '',
      followers: [],
      following: [ref(ADA)],
      theme: 'light',
      __v: 0,
    },
    { _id: 'not-an-object-id', userName: 'broken', email: 'broken@example.com', password: dupeHash },
  ];
  const posts = [
    {
      _id: ref(P1),
      title: 'Hello TechIt',
      desc: 'The first post',
      photo: 'https://res.cloudinary.com/techit/image/upload/v1/p1.jpg',
      category: 'Informative',
      link1: 'github.com/ada/techit',
      link2: 'https://ada.dev',
      likes: [ref(BOB), ref(CY), ref(BOB), ref(GHOST)],
      comments: [
        { _id: ref(C1), text: 'Nice', postedBy: ref(BOB) },
        { _id: ref(C2), text: 'Thanks', postedBy: ref(ADA) },
        { _id: ref(C3), text: 'Again', postedBy: ref(BOB) },
      ],
      postedBy: ref(ADA),
      createdAt: P1_CREATED,
      updatedAt: P1_CREATED,
      __v: 3,
    },
    {
      _id: ref(P2),
      title: 'A question',
      desc: 'How do I start, @bob?',
      photo: '',
      category: 'doubt',
      link1: 'javascript:alert(1)',
      link2: '',
      likes: [],
      comments: [],
      postedBy: ref(BOB),
      createdAt: P2_CREATED,
      updatedAt: P2_UPDATED,
      __v: 0,
    },
    {
      _id: ref(P3),
      title: 'By the duplicate',
      desc: 'Skipped with its author',
      photo: '',
      category: 'Doubt',
      link1: '',
      link2: '',
      likes: [ref(ADA)],
      comments: [{ _id: ref(oid('2022-03-11T09:00:00Z', 26)), text: 'Gone too', postedBy: ref(ADA) }],
      postedBy: ref(DUPE),
      createdAt: new Date('2022-03-10T08:00:00Z'),
      updatedAt: new Date('2022-03-10T08:00:00Z'),
      __v: 0,
    },
    {
      _id: ref(P4),
      title: LONG_TITLE,
      desc: 'A title longer than ours',
      photo: '',
      category: 'Informative',
      link1: '',
      link2: '',
      likes: [ref(ADA)],
      comments: [
        { _id: ref(C4), text: 'From nowhere', postedBy: ref(GHOST) },
        { _id: ref(C5), text: 'Mine', postedBy: ref(CY) },
      ],
      postedBy: ref(CY),
      createdAt: new Date('2022-04-10T08:00:00Z'),
      updatedAt: new Date('2022-04-10T08:00:00Z'),
      __v: 0,
    },
  ];
  // The original's notices have no date at all.
  const notices = [
    {
      _id: ref(N1),
      desc: 'Meetup on Friday',
      tags: [],
      links: ['https://meetup.example.com', 'ada.dev/slides'],
      likes: [ref(BOB)],
      comments: [{ _id: ref(NC), text: 'See you', postedBy: ref(BOB) }],
      postedBy: ref(ADA),
      __v: 0,
    },
    { _id: ref(N2), desc: 'Hiring', tags: [], links: [], likes: [], comments: [], postedBy: ref(BOB), __v: 0 },
  ];
  return { users, posts, notices };
}

function runCli(args: string[], data: ServerData): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run \`npm run build -w contract && npm run build -w backend\` first.`);
  }
  return new Promise((resolveRun, reject) => {
    // Not the repository as working directory: the CLI would read a developer's ./.env.
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: data.dataDir,
      env: { ...process.env, DATA_DIR: data.dataDir, DATABASE_URL: data.databaseUrl ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

async function countRows(db: Db): Promise<Record<string, number>> {
  const tables = ['users', 'follows', 'posts', 'likes', 'comments', 'notices'] as const;
  const counts = await Promise.all(
    tables.map(async (table) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ),
  );
  return Object.fromEntries(tables.map((table, index) => [table, counts[index]]));
}

function adjustment(summary: MongoImportSummary, kind: string): number {
  return summary.adjustments.find((entry) => entry.kind === kind)?.count ?? 0;
}

const EXPECTED_ROWS = { users: 3, follows: 4, posts: 3, likes: 3, comments: 4, notices: 2 };

let t: TestApp;
let work: string;
let linesFolder: string;
let arrayFolder: string;
let first: MongoImportSummary;
/** The database right after the first import, before anyone signed in. */
let afterFirstImport: string;

beforeAll(async () => {
  t = await startTestApp();
  work = mkdtempSync(join(tmpdir(), 'techit-import-'));
  const data = await originalExport();
  // The same export twice, in mongoexport's two layouts and both Extended JSON modes.
  linesFolder = join(work, 'lines');
  writeExport(linesFolder, data, {
    users: { mode: 'canonical', array: false },
    posts: { mode: 'relaxed', array: true },
    notices: { mode: 'relaxed', array: false },
  });
  arrayFolder = join(work, 'array');
  writeExport(arrayFolder, data, {
    users: { mode: 'relaxed', array: true },
    posts: { mode: 'canonical', array: false },
    notices: { mode: 'canonical', array: true },
  });
  first = await importMongoExport(t.config, linesFolder);
  afterFirstImport = await snapshot(t.db);
});

afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run import:mongo, as a function', () => {
  it('inserts the users, follows, posts, likes, comments and notices the export maps to, and counts what it read', () => {
    expect(first.dialect).toBe(t.dialect);
    expect(first.read).toEqual({ users: 5, posts: 4, notices: 2 });
    expect(first.inserted).toEqual(EXPECTED_ROWS);
    expect(first.alreadyPresent).toEqual({ users: 0, follows: 0, posts: 0, likes: 0, comments: 0, notices: 0 });
  });

  it('keeps the original ids and dates (a comment or notice without a date gets its ObjectId’s second)', async () => {
    expect((await t.db.selectFrom('users').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual([
      ADA,
      BOB,
      CY,
    ]);
    const posts = await t.db.selectFrom('posts').select(['id', 'created_at', 'updated_at']).orderBy('id').execute();
    expect(posts).toEqual([
      { id: P1, created_at: P1_CREATED.toISOString(), updated_at: P1_CREATED.toISOString() },
      { id: P2, created_at: P2_CREATED.toISOString(), updated_at: P2_UPDATED.toISOString() },
      { id: P4, created_at: '2022-04-10T08:00:00.000Z', updated_at: '2022-04-10T08:00:00.000Z' },
    ]);
    const comments = await t.db
      .selectFrom('comments')
      .select(['id', 'post_id', 'author_id', 'created_at'])
      .orderBy('id')
      .execute();
    expect(comments).toEqual([
      { id: C1, post_id: P1, author_id: BOB, created_at: '2022-01-11T09:00:00.000Z' },
      { id: C2, post_id: P1, author_id: ADA, created_at: '2022-01-12T09:00:00.000Z' },
      { id: C3, post_id: P1, author_id: BOB, created_at: '2022-01-13T09:00:00.000Z' },
      { id: C5, post_id: P4, author_id: CY, created_at: '2022-04-12T09:00:00.000Z' },
    ]);
    const notices = await t.db.selectFrom('notices').select(['id', 'created_at']).orderBy('id').execute();
    expect(notices).toEqual([
      { id: N1, created_at: '2022-05-01T12:00:00.000Z' },
      { id: N2, created_at: '2022-06-01T12:00:00.000Z' },
    ]);
  });

  it('stores the email and its comparison key the way sign-up does, and keeps the bcrypt hash as it was', async () => {
    const ada = await t.db.selectFrom('users').selectAll().where('id', '=', ADA).executeTakeFirstOrThrow();
    expect(ada).toMatchObject({
      user_name: 'ada',
      email: 'Ada@Example.com',
      email_key: 'ada@example.com',
      theme: 'dark',
    });
    expect(ada.password_hash).toMatch(/^\$2a\$10\$/);
    const cy = await t.db.selectFrom('users').selectAll().where('id', '=', CY).executeTakeFirstOrThrow();
    // A plain-text "hash" is never stored: the account is kept, locked.
    expect(cy.password_hash).toBe(LOCKED_PASSWORD_HASH);
    expect(cy.pic).toBe(DEFAULT_PROFILE_PIC);
  });

  it('collapses duplicate likes and follows and drops the ones pointing at users not imported', async () => {
    const follows = await t.db.selectFrom('follows').select(['follower_id', 'followee_id']).execute();
    const pairs = follows.map((row) => `${row.follower_id}>${row.followee_id}`).sort();
    expect(pairs).toEqual([`${ADA}>${BOB}`, `${ADA}>${CY}`, `${BOB}>${ADA}`, `${CY}>${BOB}`].sort());
    const likes = await t.db.selectFrom('likes').select(['post_id', 'user_id']).execute();
    expect(likes.map((row) => `${row.post_id}<${row.user_id}`).sort()).toEqual(
      [`${P1}<${BOB}`, `${P1}<${CY}`, `${P4}<${ADA}`].sort(),
    );
    expect(adjustment(first, 'likeDuplicate')).toBe(1);
    expect(adjustment(first, 'likeDangling')).toBe(1);
    expect(adjustment(first, 'followDuplicate')).toBe(2);
    expect(adjustment(first, 'followDangling')).toBe(1);
    // CY follows BOB, but BOB's followers never listed CY: kept, and reported.
    expect(adjustment(first, 'followOneSided')).toBe(1);
  });

  it('keeps every post counter equal to its rows: likes, comments and distinct commenters', async () => {
    const wrong = await sql.raw<{ id: string }>(WRONG_POST_COUNTERS_QUERY).execute(t.db);
    expect(wrong.rows).toEqual([]);
    const p1 = await t.db.selectFrom('posts').selectAll().where('id', '=', P1).executeTakeFirstOrThrow();
    expect([Number(p1.likes_count), Number(p1.comments_count), Number(p1.commenters_count)]).toEqual([2, 3, 2]);
  });

  it('reports every adjustment: skipped users and their posts, fixed links, dropped notice likes and comments', () => {
    const counts = Object.fromEntries(first.adjustments.map((entry) => [entry.kind, entry.count]));
    expect(counts).toEqual({
      userBadId: 1,
      userDuplicateInExport: 1,
      userNameOutsideRules: 1,
      passwordUnusable: 1,
      picReplaced: 1,
      positionOverLimit: 1,
      followDangling: 1,
      followDuplicate: 2,
      followOneSided: 1,
      postAuthorMissing: 1,
      titleOverLimit: 1,
      linkPrefixed: 2,
      linkDropped: 1,
      likeDangling: 1,
      likeDuplicate: 1,
      commentAuthorMissing: 1,
      noticeLikesDropped: 1,
      noticeCommentsDropped: 1,
    });
    const duplicate = first.adjustments.find((entry) => entry.kind === 'userDuplicateInExport');
    expect(duplicate?.examples).toEqual([`${DUPE} (ADA)`]);
  });
});

describe('the imported data through the API', () => {
  it('GET /api/posts/:id serves an imported post with its author, links, category and counts', async () => {
    const { body } = await t.http.get(`/api/posts/${P1}`).expect(200);
    expect(body.post).toMatchObject({
      _id: P1,
      title: 'Hello TechIt',
      desc: 'The first post',
      photo: 'https://res.cloudinary.com/techit/image/upload/v1/p1.jpg',
      category: 'Informative',
      link1: 'https://github.com/ada/techit',
      link2: 'https://ada.dev',
      likesCount: 2,
      commentsCount: 3,
      postedBy: { _id: ADA, userName: 'ada', pic: 'https://res.cloudinary.com/techit/image/upload/v1/ada.png' },
      createdAt: P1_CREATED.toISOString(),
      // Rendered by the import, as the app renders on save; the original had no article.
      descHtml: '<p>The first post</p>\n',
      body: '',
      bodyHtml: '',
    });
    const p2 = await t.http.get(`/api/posts/${P2}`).expect(200);
    expect(p2.body.post).toMatchObject({
      category: 'Doubt',
      link1: '',
      photo: '',
      // An @name of an imported account links to its profile.
      descHtml: `<p>How do I start, <a href="/profile/${BOB}" class="mention">@bob</a>?</p>\n`,
    });
    const p4 = await t.http.get(`/api/posts/${P4}`).expect(200);
    expect(p4.body.post.title).toBe(LONG_TITLE);
  });

  it('stores the HTML of every imported post, comment and notice at the current renderer version', async () => {
    for (const table of ['posts', 'comments', 'notices'] as const) {
      const stale = await t.db.selectFrom(table).select('id').where('render_version', '<>', RENDERER_VERSION).execute();
      expect({ table, stale }).toEqual({ table, stale: [] });
    }
    const { body } = await t.http.get(`/api/posts/${P1}/comments`).expect(200);
    expect(body.comments.map((comment: { textHtml: string }) => comment.textHtml)).toEqual([
      '<p>Nice</p>\n',
      '<p>Thanks</p>\n',
      '<p>Again</p>\n',
    ]);
  });

  it('GET /api/posts/:id/comments serves the unfolded comments, oldest first, with their authors', async () => {
    const { body } = await t.http.get(`/api/posts/${P1}/comments`).expect(200);
    expect(
      body.comments.map((comment: { _id: string; text: string; postedBy: { userName: string } }) => [
        comment._id,
        comment.text,
        comment.postedBy.userName,
      ]),
    ).toEqual([
      [C1, 'Nice', 'bob'],
      [C2, 'Thanks', 'ada'],
      [C3, 'Again', 'bob'],
    ]);
  });

  it('the for-you feed lists the imported posts newest first', async () => {
    const { body } = await t.http.get('/api/posts?feed=for-you&page=1&limit=4').expect(200);
    expect(body.posts.map((post: { _id: string }) => post._id)).toEqual([P4, P2, P1]);
  });

  it('GET /api/user/:id serves an imported profile with its followers and following', async () => {
    const { body } = await t.http.get(`/api/user/${ADA}`).expect(200);
    expect(body.user).toMatchObject({ _id: ADA, userName: 'ada', position: 'Engineer', bio: 'Writes compilers' });
    expect([...body.user.followers].sort()).toEqual([BOB]);
    expect([...body.user.following].sort()).toEqual([BOB, CY].sort());
  });

  it('GET /api/allnotices and /api/usernotices/:id serve the imported notices with their links', async () => {
    const all = await t.http.get('/api/allnotices').expect(200);
    expect(all.body.notices.map((notice: { _id: string }) => notice._id)).toEqual([N2, N1]);
    const { body } = await t.http.get(`/api/usernotices/${ADA}`).expect(200);
    expect(body.notices).toEqual([
      {
        _id: N1,
        desc: 'Meetup on Friday',
        descHtml: '<p>Meetup on Friday</p>\n',
        links: ['https://meetup.example.com', 'https://ada.dev/slides'],
        tags: [],
        postedBy: { _id: ADA, userName: 'ada', pic: 'https://res.cloudinary.com/techit/image/upload/v1/ada.png' },
        createdAt: '2022-05-01T12:00:00.000Z',
      },
    ]);
  });
});

describe('POST /api/signin for an imported account', () => {
  it('accepts the original password against the bcrypt hash and stores an argon2id hash instead', async () => {
    const response = await t.http.post('/api/signin').send({ userName: 'ada', password: ADA_PASSWORD }).expect(200);
    expect(response.body.user).toMatchObject({ _id: ADA, email: 'Ada@Example.com', theme: 'dark' });
    const { password_hash } = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', ADA)
      .executeTakeFirstOrThrow();
    expect(password_hash).toMatch(/^\$argon2id\$/);
    // And the same password goes on working against the new hash.
    await t.http.post('/api/signin').send({ userName: 'ada', password: ADA_PASSWORD }).expect(200);
    const me = await t.http.get(`/api/user/${ADA}`).set('Authorization', `Bearer ${response.body.token}`).expect(200);
    expect(me.body.user._id).toBe(ADA);
  });

  it('refuses a wrong password and leaves the bcrypt hash as it was', async () => {
    const before = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', BOB)
      .executeTakeFirstOrThrow();
    await t.http.post('/api/signin').send({ userName: 'bob', password: 'not the password' }).expect(401);
    const after = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', BOB)
      .executeTakeFirstOrThrow();
    expect(after.password_hash).toBe(before.password_hash);
    expect(after.password_hash).toMatch(/^\$2y\$10\$/);
  });

  it('accepts the email in any letter case, as for any account ($2y$ hash)', async () => {
    await t.http.post('/api/signin').send({ userName: 'BOB@Example.com', password: BOB_PASSWORD }).expect(200);
  });

  it('keeps a locked account (no usable hash in the export) locked, even with the text that was stored', async () => {
    await t.http.post('/api/signin').send({ userName: 'cy', password: 'stored in plain text' }).expect(401);
  });
});

describe('running the import again', () => {
  it('changes nothing, in either layout, and leaves the re-hashed password alone', async () => {
    await expectDatabaseUnchanged(t.db, async () => {
      for (const folder of [linesFolder, arrayFolder]) {
        const again = await importMongoExport(t.config, folder);
        expect(again.inserted).toEqual({ users: 0, follows: 0, posts: 0, likes: 0, comments: 0, notices: 0 });
        expect(again.alreadyPresent).toEqual(EXPECTED_ROWS);
        expect(again.countersRebuilt).toBe(0);
      }
    });
    const ada = await t.db.selectFrom('users').select('password_hash').where('id', '=', ADA).executeTakeFirstOrThrow();
    expect(ada.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('rejects a malformed line with its file and line number and writes nothing', async () => {
    const broken = join(work, 'broken');
    writeExport(broken, await originalExport(), {
      users: { mode: 'relaxed', array: false },
      posts: { mode: 'relaxed', array: false },
      notices: { mode: 'relaxed', array: false },
    });
    writeFileSync(
      join(broken, 'notices.json'),
      `${JSON.stringify({ _id: { $oid: N1 }, desc: 'ok' })}\n{"_id": {"$oid": "${N2}"}, "desc": }\n`,
    );
    await expectDatabaseUnchanged(t.db, async () => {
      await expect(importMongoExport(t.config, broken)).rejects.toThrow(MongoImportError);
      await expect(importMongoExport(t.config, broken)).rejects.toThrow(/^notices\.json line 2: not valid JSON/);
    });
  });
});

describe('npm run import:mongo on a fresh database (the built CLI, in a process of its own)', () => {
  let data: ServerData;
  let db: Db;
  beforeAll(async () => {
    data = await createServerData();
    db = data.open();
    await migrateToLatest(db, data.dialect);
  });
  afterAll(async () => {
    await db.destroy();
    await data.remove();
  });

  it('exits with code 1 and one clear line for a folder that does not exist, or no folder at all', async () => {
    const missing = await runCli([join(work, 'no-such-folder')], data);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`${join(work, 'no-such-folder')}: no such folder`);
    const usage = await runCli([], data);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Usage: npm run import:mongo -- <folder>');
  }, 60_000);

  it('refuses a folder that misses one of the three files, naming it', async () => {
    const incomplete = join(work, 'incomplete');
    mkdirSync(incomplete, { recursive: true });
    writeFileSync(join(incomplete, 'users.json'), '');
    await expect(
      importMongoExport({ databaseUrl: data.databaseUrl, dataDir: data.dataDir }, incomplete),
    ).rejects.toThrow(`${incomplete} has no posts.json, notices.json`);
  });

  it('exits with code 1 on a malformed line, naming it, with nothing imported', async () => {
    const result = await runCli([join(work, 'broken')], data);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^notices\.json line 2: not valid JSON/);
    expect(await countRows(db)).toEqual({ users: 0, follows: 0, posts: 0, likes: 0, comments: 0, notices: 0 });
  }, 60_000);

  it('rolls everything back when the database fails halfway (the notices, written last)', async () => {
    const target = { databaseUrl: data.databaseUrl, dataDir: data.dataDir };
    if (data.dialect === 'sqlite') {
      await sql`create trigger fail_import before insert on notices begin select raise(abort, 'injected failure'); end`.execute(
        db,
      );
    } else {
      await sql`create function fail_import() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`.execute(
        db,
      );
      await sql`create trigger fail_import before insert on notices for each row execute function fail_import()`.execute(
        db,
      );
    }
    try {
      // Caught and compared by message: on busy full-suite runs (about one in three, also before
      // session 6) `.rejects.toThrow` reported "did not throw" although the importer, logged from
      // inside, saw the trigger and reached the notices insert. Not understood yet; a resolved
      // import still fails here (as `null`), so nothing is weakened.
      const failure = await importMongoExport(target, linesFolder).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure instanceof Error ? failure.message : String(failure)).toContain('injected failure');
    } finally {
      if (data.dialect === 'sqlite') await sql`drop trigger fail_import`.execute(db);
      else await sql`drop trigger fail_import on notices`.execute(db);
    }
    expect(await countRows(db)).toEqual({ users: 0, follows: 0, posts: 0, likes: 0, comments: 0, notices: 0 });
  }, 60_000);

  it('--dry-run reports what it would insert and writes nothing', async () => {
    const result = await runCli([arrayFolder, '--dry-run'], data);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Would insert: 3 users, 4 follows, 3 posts, 3 likes, 4 comments, 2 notices');
    expect(await countRows(db)).toEqual({ users: 0, follows: 0, posts: 0, likes: 0, comments: 0, notices: 0 });
  }, 60_000);

  it('imports the --jsonArray export to exactly the rows the line-per-document one gave', async () => {
    const result = await runCli([arrayFolder], data);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Inserted: 3 users, 4 follows, 3 posts, 3 likes, 4 comments, 2 notices');
    expect(result.stdout).toContain(
      `1 users skipped: userName or email (ignoring case) already used by an older user in the export (e.g. ${DUPE} (ADA))`,
    );
    expect(await snapshot(db)).toBe(afterFirstImport);
  }, 60_000);
});
