import { OUTSIDE } from '@techit/contract/limits';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CompiledQuery } from 'kysely';
import type { Response } from 'supertest';
import type { FullRow } from '../src/seed/bulk-writer';
import type { BulkWriter } from '../src/seed/bulk-writer';
import { PostgresBulkWriter } from '../src/seed/postgres-bulk-writer';
import { SqliteBulkWriter } from '../src/seed/sqlite-bulk-writer';
import { createUser, type TestUser } from './support/factories';
import { postRow } from './support/post-row-factories';
import { startTestApp, type TestApp } from './support/test-app';

const HOST = 'sitemap.example';
const ORIGIN = `http://${HOST}`;
/** One more than two full pages: the third page holds one post. */
const POSTS = 2 * OUTSIDE.sitemapPageSize + 1;
const BASE = Date.UTC(2025, 0, 1);

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

function get(t: TestApp, path: string) {
  return t.http.get(path).set('Host', HOST);
}

/** The <loc>s (and lastmods) of a well-formed sitemap file. */
function urlsOf(response: Response): { loc: string; lastmod: string }[] {
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
  expect(XMLValidator.validate(response.text)).toBe(true);
  const parsed = new XMLParser({ isArray: (name) => name === 'url' }).parse(response.text) as {
    urlset: { url?: { loc: string; lastmod: string }[] };
  };
  return parsed.urlset.url ?? [];
}

function indexOf(response: Response): string[] {
  expect(response.status).toBe(200);
  expect(XMLValidator.validate(response.text)).toBe(true);
  const parsed = new XMLParser({ isArray: (name) => name === 'sitemap' }).parse(response.text) as {
    sitemapindex: { sitemap: { loc: string }[] };
  };
  return parsed.sitemapindex.sitemap.map((entry) => entry.loc);
}

/** The index-th of the posts written straight into the table, a second apart. */
function nthPost(index: number, authorId: string): FullRow<'posts'> {
  return postRow({
    id: (0x100000 + index).toString(16).padStart(24, '0'),
    authorId,
    at: new Date(BASE + index * 1000).toISOString(),
    title: `Post ${index}`,
  });
}

/** The plan of a statement the app ran, as one line per step. */
async function planOf(t: TestApp, statement: Statement): Promise<string> {
  if (t.dialect === 'postgres') {
    const result = await t.db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`EXPLAIN ${statement.sql}`, [...statement.parameters]),
    );
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  }
  const result = await t.db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]),
  );
  return result.rows.map((row) => row.detail).join('\n');
}

describe(`the sitemap at ${POSTS.toLocaleString('en')} posts`, () => {
  let t: TestApp;
  let recorded: Statement[] | null = null;
  let users: TestUser[];
  const report: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({}, (sql, parameters) => recorded?.push({ sql, parameters }));
    users = [await createUser(t), await createUser(t), await createUser(t)];
    const started = performance.now();
    const writer: BulkWriter = t.config.databaseUrl
      ? new PostgresBulkWriter(t.config.databaseUrl)
      : new SqliteBulkWriter(t.config.dataDir);
    try {
      await writer.begin();
      const chunk = 5_000;
      for (let from = 0; from < POSTS; from += chunk) {
        const rows: FullRow<'posts'>[] = [];
        for (let index = from; index < Math.min(POSTS, from + chunk); index += 1)
          rows.push(nthPost(index, users[index % users.length].id));
        await writer.insert('posts', rows);
      }
      await writer.insert('tags', [
        { name: 'rust', posts_count: 2, followers_count: 0 },
        { name: 'go', posts_count: 1, followers_count: 0 },
        { name: 'unused', posts_count: 0, followers_count: 3 },
      ]);
      await writer.insert('post_tags', [
        { post_id: nthPost(10, '').id, tag: 'rust', position: 0, created_at: nthPost(10, '').created_at },
        { post_id: nthPost(20, '').id, tag: 'rust', position: 0, created_at: nthPost(20, '').created_at },
        { post_id: nthPost(20, '').id, tag: 'go', position: 1, created_at: nthPost(20, '').created_at },
      ]);
      await writer.commit();
      await writer.analyze();
    } finally {
      await writer.close();
    }
    report.push(`bulk-inserted ${POSTS} posts in ${Math.round(performance.now() - started)} ms (${t.dialect})`);
  }, 120_000);

  afterAll(async () => {
    // The measurements this suite was asked for, printed once.
    process.stdout.write(`\nsitemap (${t.dialect}):\n  ${report.join('\n  ')}\n`);
    await t.close();
  });

  it('answers an index naming every page of posts, profiles and tags, absolute', async () => {
    recorded = [];
    const started = performance.now();
    const pages = indexOf(await get(t, '/sitemap.xml'));
    report.push(
      `index (page starts of every list, one pass over each index) in ${Math.round(performance.now() - started)} ms`,
    );
    expect(pages).toEqual([
      `${ORIGIN}/sitemap/posts-1.xml`,
      `${ORIGIN}/sitemap/posts-2.xml`,
      `${ORIGIN}/sitemap/posts-3.xml`,
      `${ORIGIN}/sitemap/profiles-1.xml`,
      `${ORIGIN}/sitemap/tags-1.xml`,
    ]);
    const startsOfPosts = recorded.find((statement) =>
      /row_number\(\) over \(order by created_at, id\)/i.test(statement.sql),
    );
    expect(startsOfPosts).toBeDefined();
    const plan = await planOf(t, startsOfPosts as Statement);
    report.push(`plan of the posts' page starts:\n    ${plan.replace(/\n/g, '\n    ')}`);
    // Read from the (created_at, id) index, never sorted.
    expect(plan).toMatch(/posts_created_idx/);
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
    recorded = null;
  });

  it(`pages the posts ${OUTSIDE.sitemapPageSize.toLocaleString('en')} at a time, each once, oldest first, each with its lastmod`, async () => {
    const seen: string[] = [];
    for (const n of [1, 2, 3]) {
      recorded = [];
      const started = performance.now();
      const response = await get(t, `/sitemap/posts-${n}.xml`);
      const ms = Math.round(performance.now() - started);
      const urls = urlsOf(response);
      report.push(`posts-${n}.xml: ${urls.length} URLs in ${ms} ms (${response.text.length} bytes)`);
      expect(urls.length).toBe(n < 3 ? OUTSIDE.sitemapPageSize : 1);
      const first = (n - 1) * OUTSIDE.sitemapPageSize;
      expect(urls[0]).toEqual({
        loc: `${ORIGIN}/posts/${nthPost(first, '').id}`,
        lastmod: nthPost(first, '').updated_at,
      });
      seen.push(...urls.map((url) => url.loc));
      if (n === 2) {
        const read = recorded.find((statement) => /from "posts"/i.test(statement.sql) && /limit/i.test(statement.sql));
        expect(read).toBeDefined();
        const plan = await planOf(t, read as Statement);
        report.push(`plan of a posts page:\n    ${plan.replace(/\n/g, '\n    ')}`);
        expect(plan).toMatch(/posts_created_idx/);
        expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
      }
    }
    recorded = null;
    expect(new Set(seen).size).toBe(POSTS);
    expect((await get(t, '/sitemap/posts-4.xml')).status).toBe(404);
    // Two 6 MB files built, sent and parsed: slow when other suites share the machine.
  }, 120_000);

  it('keeps a page in memory: asked again, it runs no statement and answers 304 to its ETag', async () => {
    const first = await get(t, '/sitemap/posts-2.xml').expect(200);
    recorded = [];
    const again = await get(t, '/sitemap/posts-2.xml').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    expect(recorded).toEqual([]);
    recorded = null;
  });

  it('lists every profile and every tag in use, with their lastmod', async () => {
    const profiles = urlsOf(await get(t, '/sitemap/profiles-1.xml'));
    expect(profiles.map((url) => url.loc).sort()).toEqual(users.map((user) => `${ORIGIN}/profile/${user.id}`).sort());
    for (const url of profiles) expect(Number.isNaN(Date.parse(url.lastmod))).toBe(false);
    expect(urlsOf(await get(t, '/sitemap/tags-1.xml'))).toEqual([
      { loc: `${ORIGIN}/t/go`, lastmod: nthPost(20, '').created_at },
      { loc: `${ORIGIN}/t/rust`, lastmod: nthPost(20, '').created_at },
    ]);
  });

  it('answers 404 as text for a page that does not exist', async () => {
    for (const path of [
      '/sitemap/posts-0.xml',
      '/sitemap/tags-2.xml',
      '/sitemap/other-1.xml',
      '/sitemap/posts-1.txt',
    ]) {
      const response = await get(t, path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
    }
  });

  it('answers robots.txt: the site allowed, the API and private screens not, the sitemap named', async () => {
    const response = await get(t, '/robots.txt').expect(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.text.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of [
      '/api/',
      '/createpost',
      '/editpost/',
      '/notifications',
      '/bookmarks',
      '/posts/*/history',
      '/forgot-password',
      '/reset-password',
    ])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });
});

describe('a small sitemap (SITEMAP_PAGE_SIZE=2, no cache)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SITEMAP_PAGE_SIZE: '2', SITEMAP_CACHE_TTL_MS: '0' });
  });

  afterAll(() => t.close());

  it('pages profiles by the setting and shows a new one at once without a cache', async () => {
    const made: TestUser[] = [];
    for (let index = 0; index < 3; index += 1) made.push(await createUser(t));
    expect(indexOf(await get(t, '/sitemap.xml'))).toEqual([
      `${ORIGIN}/sitemap/profiles-1.xml`,
      `${ORIGIN}/sitemap/profiles-2.xml`,
    ]);
    const listed = [
      ...urlsOf(await get(t, '/sitemap/profiles-1.xml')),
      ...urlsOf(await get(t, '/sitemap/profiles-2.xml')),
    ].map((url) => url.loc);
    expect(listed).toEqual(
      [...made].sort((a, b) => a.id.localeCompare(b.id)).map((user) => `${ORIGIN}/profile/${user.id}`),
    );
    made.push(await createUser(t));
    expect(urlsOf(await get(t, '/sitemap/profiles-2.xml'))).toHaveLength(2);
  });
});
