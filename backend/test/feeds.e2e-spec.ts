import { parseFeed } from '@rowanmanning/feed-parser';
import type { Post } from '@techit/contract/api-types';
import { FEED_MEDIA_TYPES, type FeedFormat, type FeedSource, feedPath } from '@techit/contract/feed-paths';
import { OUTSIDE } from '@techit/contract/limits';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Response } from 'supertest';
import { createPost, createUser, type TestUser } from './support/factories';
import { postRow } from './support/post-row-factories';
import { startTestApp, type TestApp } from './support/test-app';

const HOST = 'feeds.example';
const ORIGIN = `http://${HOST}`;
/** Characters XML 1.0 forbids even escaped: none may reach a feed. */
// eslint-disable-next-line no-control-regex -- these control characters are what it looks for
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

const HOSTILE_TITLE = 'Tom & "Jerry\'s" <script>alert(1)</script> ]]> \u0001bell\u000Bvt\uFFFE!';
const HOSTILE_TITLE_SHOWN = 'Tom & "Jerry\'s" <script>alert(1)</script> ]]> bellvt!';
/** Stored HTML is sanitised on write; a feed must carry even this unharmed, as text. */
const HOSTILE_HTML = '<p>one ]]> two</p><![CDATA[ & "three" ]]><script>alert(2)</script>\u0002';
const HOSTILE_HTML_SHOWN = '<p>one ]]> two</p><![CDATA[ & "three" ]]><script>alert(2)</script>';

const FORMATS: FeedFormat[] = ['rss', 'atom'];

function get(t: TestApp, path: string) {
  return t.http.get(path).set('Host', HOST);
}

/** A well-formed XML document of the feed's media type (with its charset), parsed by a real feed parser. */
function parsed(response: Response, format: FeedFormat) {
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe(`${FEED_MEDIA_TYPES[format]}; charset=utf-8`);
  const xml = response.text;
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(xml).not.toMatch(NOT_XML);
  return { xml, feed: parseFeed(xml), raw: new XMLParser({ ignoreAttributes: false }).parse(xml) as RawFeed };
}

type RawNode = Record<string, unknown>;
interface RawFeed {
  rss?: { channel: RawNode & { item?: RawNode | RawNode[] } };
  feed?: RawNode & { entry?: RawNode | RawNode[] };
}

function list<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The elements RSS 2.0 and Atom 1.0 require, present and non-empty in the document itself. */
function expectRequiredElements(raw: RawFeed, format: FeedFormat, entries: number): void {
  const present = (node: RawNode, name: string) => {
    const value = node[name];
    expect({ name, present: value !== undefined && value !== '' }).toEqual({ name, present: true });
  };
  if (format === 'rss') {
    const channel = raw.rss?.channel as RawNode & { item?: RawNode | RawNode[] };
    for (const name of ['title', 'link', 'description', 'atom:link']) present(channel, name);
    const items = list(channel.item);
    expect(items).toHaveLength(entries);
    for (const item of items)
      for (const name of ['title', 'link', 'guid', 'pubDate', 'description']) present(item, name);
    return;
  }
  const feed = raw.feed as RawNode & { entry?: RawNode | RawNode[] };
  for (const name of ['id', 'title', 'updated', 'link']) present(feed, name);
  const links = list(feed.link as RawNode | RawNode[]);
  expect(links.map((link) => link['@_rel'])).toEqual(expect.arrayContaining(['self', 'alternate']));
  const items = list(feed.entry);
  expect(items).toHaveLength(entries);
  for (const entry of items) {
    for (const name of ['id', 'title', 'updated', 'published', 'link', 'author', 'content']) present(entry, name);
    present(entry.author as RawNode, 'name');
  }
}

describe('RSS 2.0 and Atom 1.0 feeds', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let hostile: Post;
  let tagged: Post;
  let plain: Post;

  beforeAll(async () => {
    t = await startTestApp();
    ada = await createUser(t);
    bob = await createUser(t);
    tagged = await createPost(t, ada, {
      title: 'Tagged',
      desc: 'A *tagged* post',
      body: 'The **body**',
      tags: ['rust', 'web'],
    });
    plain = await createPost(t, bob, { title: 'Plain', desc: 'Only a description' });
    hostile = await createPost(t, ada, {
      title: 'placeholder',
      desc: 'Hostile',
      body: 'replaced below',
      tags: ['rust'],
    });
    // Behind the API's back: a title with control characters and a stored body no renderer makes.
    await t.db
      .updateTable('posts')
      .set({ title: HOSTILE_TITLE, body_html: HOSTILE_HTML })
      .where('id', '=', hostile._id)
      .execute();
  });

  afterAll(() => t.close());

  const sources = (): { source: FeedSource; posts: () => Post[] }[] => [
    { source: { kind: 'latest' }, posts: () => [hostile, plain, tagged] },
    { source: { kind: 'hot' }, posts: () => [hostile, plain, tagged] },
    { source: { kind: 'tag', name: 'rust' }, posts: () => [hostile, tagged] },
    { source: { kind: 'user', id: ada.id }, posts: () => [hostile, tagged] },
  ];

  for (const format of FORMATS) {
    it(`answers every feed kind as ${format}, parsed by a feed parser with every required element`, async () => {
      for (const { source, posts } of sources()) {
        const path = feedPath(source, format);
        const { feed, raw } = parsed(await get(t, path), format);
        const expected = posts();
        expectRequiredElements(raw, format, expected.length);
        expect(feed.title).toMatch(/^TechIt: /);
        expect(feed.self).toBe(ORIGIN + path);
        // The hot feed ranks by score: same posts, its own order.
        const ids = feed.items.map((item) => item.url);
        const urls = expected.map((post) => `${ORIGIN}/posts/${post._id}`);
        if (source.kind === 'hot') expect([...ids].sort()).toEqual([...urls].sort());
        else expect(ids).toEqual(urls);
        for (const item of feed.items) {
          const post = expected.find((candidate) => item.url === `${ORIGIN}/posts/${candidate._id}`) as Post;
          expect(item.id).toBe(item.url);
          expect(item.authors.map((author) => author.name)).toEqual([post.postedBy.userName]);
          // RSS dates (RFC 822) have whole seconds; Atom's (RFC 3339) keep the milliseconds.
          const created = Date.parse(post.createdAt);
          expect(item.published?.getTime()).toBe(format === 'rss' ? Math.floor(created / 1000) * 1000 : created);
          if (format === 'atom') expect(item.updated?.getTime()).toBe(Date.parse(post.updatedAt));
          expect(item.categories.map((category) => category.term)).toEqual(post.tags);
        }
      }
    });
  }

  it("carries each post's rendered body, else its description, as escaped HTML", async () => {
    for (const format of FORMATS) {
      const { feed, xml } = parsed(await get(t, feedPath({ kind: 'latest' }, format)), format);
      const html = (post: Post) => {
        const item = feed.items.find((candidate) => candidate.url === `${ORIGIN}/posts/${post._id}`);
        return item?.content ?? item?.description;
      };
      expect(html(tagged)?.trim()).toBe('<p>The <strong>body</strong></p>');
      expect(html(plain)?.trim()).toBe('<p>Only a description</p>');
      expect(html(hostile)).toBe(HOSTILE_HTML_SHOWN);
      // Escaped text, never CDATA and never live markup.
      expect(xml).not.toContain('<![CDATA[');
      expect(xml).not.toContain('<script>');
      expect(xml).not.toContain('<strong>');
    }
  });

  it('keeps a hostile title escaped, without the characters XML cannot carry, and the feed still parses', async () => {
    for (const format of FORMATS) {
      const { feed } = parsed(await get(t, feedPath({ kind: 'user', id: ada.id }, format)), format);
      expect(feed.items[0].title).toBe(HOSTILE_TITLE_SHOWN);
    }
  });

  it('answers 304 to If-None-Match and If-Modified-Since, and a new ETag once a post changes', async () => {
    for (const format of FORMATS) {
      const path = feedPath({ kind: 'tag', name: 'web' }, format);
      const first = await get(t, path).expect(200);
      const etag = first.headers.etag;
      const lastModified = first.headers['last-modified'];
      expect(etag).toMatch(/^W\/".+"$/);
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);

      const byTag = await get(t, path).set('If-None-Match', etag);
      expect(byTag.status).toBe(304);
      expect(byTag.text ?? '').toBe('');
      expect((await get(t, path).set('If-Modified-Since', lastModified)).status).toBe(304);
      // If-None-Match decides when both are sent.
      expect((await get(t, path).set('If-None-Match', 'W/"other"').set('If-Modified-Since', lastModified)).status).toBe(
        200,
      );
    }
    const before = (await get(t, feedPath({ kind: 'tag', name: 'web' }, 'atom'))).headers.etag;
    await createPost(t, bob, { title: 'Newly tagged', tags: ['web'] });
    const after = await get(t, feedPath({ kind: 'tag', name: 'web' }, 'atom')).set('If-None-Match', before);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before);
    expect(parsed(after, 'atom').feed.items[0].title).toBe('Newly tagged');
  });

  it('answers 404 as text for an unknown or malformed tag or user', async () => {
    const missing = [
      feedPath({ kind: 'tag', name: 'nobody-uses-this' }, 'rss'),
      feedPath({ kind: 'tag', name: 'Not a tag!' }, 'atom'),
      feedPath({ kind: 'user', id: 'ffffffffffffffffffffffff' }, 'rss'),
      feedPath({ kind: 'user', id: 'not-an-id' }, 'atom'),
      '/feed/cold.xml',
    ];
    for (const path of missing) {
      const response = await get(t, path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
    }
  });

  it('makes absolute links from the Host the reader used, not from an untrusted X-Forwarded-Proto', async () => {
    const direct = await get(t, feedPath({ kind: 'latest' }, 'atom')).set('X-Forwarded-Proto', 'https');
    expect(parsed(direct, 'atom').feed.self).toBe(`${ORIGIN}/feed.atom`);
  });
});

// Apps of their own, one at a time (an app's sign-in strategy is process-wide while it runs).
describe('a feed of many posts', () => {
  const statements: string[] = [];
  let t: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    t = await startTestApp({}, (sql) => statements.push(sql));
    author = await createUser(t);
  });

  afterAll(() => t.close());

  it('reads the articles of a whole feed in a fixed number of statements', async () => {
    const countFor = async (posts: number) => {
      for (let index = 0; index < posts; index += 1) await createPost(t, author, { body: `Body ${index}` });
      statements.length = 0;
      await t.http.get(feedPath({ kind: 'user', id: author.id }, 'rss')).expect(200);
      return statements.length;
    };
    const one = await countFor(1);
    expect(await countFor(5)).toBe(one);
  });

  it('lists at most OUTSIDE.feedEntries posts', async () => {
    const rows = Array.from({ length: OUTSIDE.feedEntries + 2 }, (_, index) =>
      postRow({
        id: (index + 1).toString(16).padStart(24, 'a'),
        authorId: author.id,
        at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
        title: `Bulk ${index}`,
        hot_score: index,
      }),
    );
    await t.db.insertInto('posts').values(rows).execute();
    for (const format of FORMATS) {
      for (const source of [{ kind: 'latest' }, { kind: 'hot' }, { kind: 'user', id: author.id }] as FeedSource[]) {
        const response = await t.http.get(feedPath(source, format));
        expect(parsed(response, format).feed.items).toHaveLength(OUTSIDE.feedEntries);
      }
    }
  });
});

describe('feeds behind a trusted proxy (TRUST_PROXY)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'loopback' });
  });

  afterAll(() => t.close());

  it("makes absolute links from the proxy's X-Forwarded-Proto and X-Forwarded-Host", async () => {
    const response = await t.http
      .get(feedPath({ kind: 'latest' }, 'atom'))
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'public.example');
    expect(parsed(response, 'atom').feed.self).toBe('https://public.example/feed.atom');
  });
});

describe('feeds with PUBLIC_URL set', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://techit.example', TRUST_PROXY: 'loopback' });
  });

  afterAll(() => t.close());

  it('make every absolute link from PUBLIC_URL, whatever Host or forwarded headers a request sends', async () => {
    const response = await t.http
      .get(feedPath({ kind: 'latest' }, 'atom'))
      .set('Host', 'forged.example')
      .set('X-Forwarded-Proto', 'http')
      .set('X-Forwarded-Host', 'other.example');
    expect(parsed(response, 'atom').feed.self).toBe('https://techit.example/feed.atom');
    const robots = await t.http.get('/robots.txt').set('Host', 'forged.example').expect(200);
    expect(robots.text).toContain('Sitemap: https://techit.example/sitemap.xml');
  });
});
