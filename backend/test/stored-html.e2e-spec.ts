import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Comment, Notice, Post } from '@techit/contract/api-types';
import { LIMITS } from '@techit/contract/limits';
import { RENDERER_VERSION } from '../src/markdown/markdown-renderer';
import { MarkdownService } from '../src/markdown/markdown.service';
import { RerenderService } from '../src/markdown/rerender.service';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Markdown rendered once, when written, and stored with the renderer's version
 * (docs/decisions/028-stored-html.md): what replies carry, what a write renders, the fallback for
 * rows not rendered yet, `npm run rerender`, and the article's size on the wire.
 */
let t: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
  bob = await createUser(t);
});
afterAll(() => t.close());

const REL = 'rel="ugc nofollow noopener noreferrer"';

/** Text written before Markdown: HTML-looking words, line breaks, an indent, a rule, stars, links. */
const PLAIN = [
  'Use <b>bold</b> and <script>alert(1)</script>',
  'second line',
  '    indented line',
  '---',
  '2 * 3 * 4 and *not closed',
  'see https://example.com/a?b=1 and www.example.org.',
].join('\n');
const PLAIN_HTML =
  '<p>Use &lt;b&gt;bold&lt;/b&gt; and &lt;script&gt;alert(1)&lt;/script&gt;<br>\n' +
  'second line<br>\n' +
  'indented line<br>\n' +
  '---<br>\n' +
  '2 * 3 * 4 and *not closed<br>\n' +
  `see <a href="https://example.com/a?b=1" ${REL}>https://example.com/a?b=1</a> and ` +
  `<a href="https://www.example.org" ${REL}>www.example.org</a>.</p>\n`;

const ARTICLE = '# Setup\n\n```ts\nconst answer = 42;\n```\n\nSee <b>this</b>.';

function comment(user: TestUser, postId: string, text: string) {
  return t.http.put('/api/comment').set('Authorization', user.auth).send({ postId, text });
}

function edit(user: TestUser, post: Post, fields: Record<string, unknown>) {
  return t.http
    .put(`/api/editpost/${post._id}`)
    .set('Authorization', user.auth)
    .send({ title: post.title, desc: post.desc, category: 'Informative', ...fields });
}

/** Counts the renders the app does (the one MarkdownService every write goes through). */
function countRenders(): { calls: () => [string, string][]; restore: () => void } {
  const spy = jest.spyOn(t.app.get(MarkdownService), 'render');
  return {
    calls: () => spy.mock.calls.map(([source, kind]) => [source, kind]),
    restore: () => spy.mockRestore(),
  };
}

function storedPost(id: string) {
  return t.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('text written without Markdown reads as it did', () => {
  it('escapes HTML, keeps line breaks, indents, rules and stray stars as text, and links URLs (desc, comment, notice)', async () => {
    const post = await createPost(t, alice, { desc: PLAIN });
    expect(post.descHtml).toBe(PLAIN_HTML);
    const commented = (await comment(bob, post._id, PLAIN).expect(200)).body as Post;
    expect(commented.comments[0].textHtml).toBe(PLAIN_HTML);
    const notice = await createNotice(t, alice, { desc: PLAIN });
    expect(notice.descHtml).toBe(PLAIN_HTML);
  });

  it('links @name of an existing user to their profile in a desc, a comment and a notice; an unknown name stays text', async () => {
    const text = `thanks @${bob.userName} and @nobody_here_at_all`;
    const link = `<a href="/profile/${bob.id}" class="mention">@${bob.userName}</a>`;
    const post = await createPost(t, alice, { desc: text });
    expect(post.descHtml).toBe(`<p>thanks ${link} and @nobody_here_at_all</p>\n`);
    const commented = (await comment(alice, post._id, text).expect(200)).body as Post;
    expect(commented.comments[0].textHtml).toContain(link);
    expect((await createNotice(t, alice, { desc: text })).descHtml).toContain(link);
  });
});

describe('which replies carry what', () => {
  let post: Post;
  beforeAll(async () => {
    post = await createPost(t, alice, { body: ARTICLE, desc: 'A *short* summary' });
    await comment(bob, post._id, 'Try `npm ci`').expect(200);
  });

  it('a single post carries body and bodyHtml (rendered with the full set), create and GET alike', async () => {
    expect(post.body).toBe(ARTICLE);
    expect(post.bodyHtml).toContain('<h1 id="setup">Setup</h1>');
    expect(post.bodyHtml).toContain('<pre><code class="hljs language-typescript">');
    expect(post.bodyHtml).toContain('&lt;b&gt;this&lt;/b&gt;');
    expect(post.descHtml).toBe('<p>A <em>short</em> summary</p>\n');
    for (const view of ['full', 'compact']) {
      const { body } = await t.http.get(`/api/posts/${post._id}?view=${view}`).expect(200);
      expect(body.post).toMatchObject({ body: ARTICLE, bodyHtml: post.bodyHtml, descHtml: post.descHtml });
      expect((body.post as Post).comments[0].textHtml).toBe('<p>Try <code>npm ci</code></p>\n');
    }
  });

  it("a post without an article carries body '' and bodyHtml ''", async () => {
    const bare = await createPost(t, alice);
    expect(bare).toMatchObject({ body: '', bodyHtml: '' });
  });

  it('every reply carrying one post carries the article: comment, uncomment, delete', async () => {
    const own = await createPost(t, bob, { body: 'Some **words**' });
    const commented = (await comment(alice, own._id, 'hello').expect(200)).body as Post;
    expect(commented).toMatchObject({ body: 'Some **words**', bodyHtml: '<p>Some <strong>words</strong></p>\n' });
    const uncommented = await t.http
      .delete(`/api/comment/${own._id}/${commented.comments[0]._id}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(uncommented.body).toMatchObject({ body: 'Some **words**', bodyHtml: commented.bodyHtml });
    const deleted = await t.http.delete(`/api/deletepost/${own._id}`).set('Authorization', bob.auth).expect(200);
    expect(deleted.body).toMatchObject({ body: 'Some **words**', bodyHtml: commented.bodyHtml });
  });

  it('lists carry descHtml and textHtml but never body or bodyHtml (feeds, user posts, top posts, likes)', async () => {
    const lists: Post[][] = [];
    for (const view of ['full', 'compact']) {
      lists.push((await t.http.get(`/api/posts?view=${view}&limit=50`).expect(200)).body.posts as Post[]);
      lists.push(
        (await t.http.get(`/api/userposts/${alice.id}?view=${view}&limit=50`).expect(200)).body.userPosts as Post[],
      );
    }
    for (const list of lists) {
      const listed = list.find((item) => item._id === post._id);
      expect(listed).toMatchObject({ descHtml: post.descHtml });
      expect(listed).not.toHaveProperty('body');
      expect(listed).not.toHaveProperty('bodyHtml');
      expect(listed?.comments.at(-1)?.textHtml).toBe('<p>Try <code>npm ci</code></p>\n');
    }
    const top = (await t.http.get('/api/top-posts').expect(200)).body.posts as object[];
    for (const item of top)
      expect(Object.keys(item).sort()).toEqual(['_id', 'commentsCount', 'likesCount', 'postedBy', 'title']);
    const liked = await t.http.put('/api/like').set('Authorization', bob.auth).send({ postId: post._id }).expect(200);
    expect(Object.keys(liked.body as object).sort()).toEqual(['_id', 'likes', 'likesCount']);
  });

  it('the comments page carries textHtml', async () => {
    for (const query of ['', '?limit=5']) {
      const { body } = await t.http.get(`/api/posts/${post._id}/comments${query}`).expect(200);
      expect((body.comments as Comment[]).map((c) => c.textHtml)).toEqual(['<p>Try <code>npm ci</code></p>\n']);
    }
  });

  it('notice replies carry descHtml: create, the lists, delete', async () => {
    const notice = await createNotice(t, alice, { desc: 'Meet-up: **Friday**' });
    const html = '<p>Meet-up: <strong>Friday</strong></p>\n';
    expect(notice.descHtml).toBe(html);
    const all = (await t.http.get('/api/allnotices').expect(200)).body.notices as Notice[];
    expect(all.find((item) => item._id === notice._id)?.descHtml).toBe(html);
    const mine = (await t.http.get(`/api/usernotices/${alice.id}`).expect(200)).body.notices as Notice[];
    expect(mine.find((item) => item._id === notice._id)?.descHtml).toBe(html);
    const deleted = await t.http.delete(`/api/deletenotice/${notice._id}`).set('Authorization', alice.auth).expect(200);
    expect((deleted.body as Notice).descHtml).toBe(html);
  });
});

describe('rendering happens on write only', () => {
  it('GET /api/posts/:id, the lists and the comments page render nothing: the stored HTML is served as stored', async () => {
    const post = await createPost(t, alice, { body: 'body *text*' });
    await comment(bob, post._id, 'a comment').expect(200);
    await t.db
      .updateTable('posts')
      .set({ desc_html: '<p>stored desc</p>', body_html: '<p>stored body</p>' })
      .where('id', '=', post._id)
      .execute();
    await t.db
      .updateTable('comments')
      .set({ text_html: '<p>stored comment</p>' })
      .where('post_id', '=', post._id)
      .execute();
    const renders = countRenders();
    try {
      const { body } = await t.http.get(`/api/posts/${post._id}`).expect(200);
      expect(body.post).toMatchObject({ descHtml: '<p>stored desc</p>', bodyHtml: '<p>stored body</p>' });
      expect(body.post.comments[0].textHtml).toBe('<p>stored comment</p>');
      await t.http.get(`/api/posts/${post._id}?view=compact`).expect(200);
      await t.http.get(`/api/posts/${post._id}/comments`).expect(200);
      await t.http.get('/api/posts?view=full').expect(200);
      await t.http.get(`/api/userposts/${alice.id}`).expect(200);
      await t.http.get('/api/allnotices').expect(200);
      expect(renders.calls()).toEqual([]);
    } finally {
      renders.restore();
    }
  });

  it('an edit renders only the texts it changes and stores the renderer version', async () => {
    const post = await createPost(t, alice, { desc: 'first desc', body: 'first body' });
    expect((await storedPost(post._id)).render_version).toBe(RENDERER_VERSION);
    const renders = countRenders();
    try {
      await edit(alice, post, { title: 'Only the title' }).expect(200);
      expect(renders.calls()).toEqual([]);
      const descEdited = (await edit(alice, post, { title: 'Only the title', desc: 'second *desc*' }).expect(200))
        .body as Post;
      expect(renders.calls()).toEqual([['second *desc*', 'comment']]);
      expect(descEdited).toMatchObject({ descHtml: '<p>second <em>desc</em></p>\n', bodyHtml: '<p>first body</p>\n' });
      const bodyEdited = (
        await edit(alice, post, { title: 'Only the title', desc: 'second *desc*', body: 'second **body**' }).expect(200)
      ).body as Post;
      expect(renders.calls()).toEqual([
        ['second *desc*', 'comment'],
        ['second **body**', 'post'],
      ]);
      expect(bodyEdited.bodyHtml).toBe('<p>second <strong>body</strong></p>\n');
      const stored = await storedPost(post._id);
      expect(stored).toMatchObject({ body: 'second **body**', render_version: RENDERER_VERSION });
    } finally {
      renders.restore();
    }
  });

  it('an edit without body keeps the article; an empty body removes it', async () => {
    const post = await createPost(t, alice, { body: 'kept' });
    const kept = (await edit(alice, post, { title: 'Retitled' }).expect(200)).body as Post;
    expect(kept).toMatchObject({ body: 'kept', bodyHtml: '<p>kept</p>\n' });
    const removed = (await edit(alice, post, { title: 'Retitled', body: '' }).expect(200)).body as Post;
    expect(removed).toMatchObject({ body: '', bodyHtml: '' });
  });

  it('an edit of a post rendered by an older renderer renders all its texts again', async () => {
    const post = await createPost(t, alice, { desc: 'old desc', body: 'old body' });
    await t.db
      .updateTable('posts')
      .set({ desc_html: null, body_html: null, render_version: 0 })
      .where('id', '=', post._id)
      .execute();
    const renders = countRenders();
    try {
      const edited = (await edit(alice, post, { title: 'New title' }).expect(200)).body as Post;
      expect(renders.calls().sort()).toEqual([
        ['old body', 'post'],
        ['old desc', 'comment'],
      ]);
      expect(edited).toMatchObject({ descHtml: '<p>old desc</p>\n', bodyHtml: '<p>old body</p>\n' });
      expect((await storedPost(post._id)).render_version).toBe(RENDERER_VERSION);
    } finally {
      renders.restore();
    }
  });

  it('the edit history records a change of the article', async () => {
    const post = await createPost(t, alice, { body: 'before' });
    await edit(alice, post, { body: 'after' }).expect(200);
    const { body } = await t.http.get(`/api/posts/${post._id}/revisions`).set('Authorization', alice.auth).expect(200);
    expect(body.revisions[0].changes).toEqual({
      body: { from: 'before', to: 'after' },
      category: { from: '', to: 'Informative' },
    });
  });
});

describe('rows not rendered yet (written before stored HTML, not reached by the rerender)', () => {
  it('carry their source escaped with its line breaks, without rendering it', async () => {
    const post = await createPost(t, alice, { desc: 'a <b>\nb & *c*', body: 'x\ny' });
    await comment(bob, post._id, "it's <i>\nfine").expect(200);
    const notice = await createNotice(t, alice, { desc: 'n\n<b>' });
    await t.db
      .updateTable('posts')
      .set({ desc_html: null, body_html: null, render_version: 0 })
      .where('id', '=', post._id)
      .execute();
    await t.db
      .updateTable('comments')
      .set({ text_html: null, render_version: 0 })
      .where('post_id', '=', post._id)
      .execute();
    await t.db
      .updateTable('notices')
      .set({ desc_html: null, render_version: 0 })
      .where('id', '=', notice._id)
      .execute();
    const renders = countRenders();
    try {
      const { body } = await t.http.get(`/api/posts/${post._id}`).expect(200);
      expect(body.post).toMatchObject({ descHtml: 'a &lt;b&gt;<br>\nb &amp; *c*', bodyHtml: 'x<br>\ny' });
      expect(body.post.comments[0].textHtml).toBe('it&#39;s &lt;i&gt;<br>\nfine');
      const notices = (await t.http.get(`/api/usernotices/${alice.id}`).expect(200)).body.notices as Notice[];
      expect(notices.find((item) => item._id === notice._id)?.descHtml).toBe('n<br>\n&lt;b&gt;');
      expect(renders.calls()).toEqual([]);
    } finally {
      renders.restore();
    }
  });
});

describe('npm run rerender', () => {
  /** Makes every row of these ids look written before stored HTML (or by an older renderer). */
  async function makeStale(ids: { posts?: string[]; comments?: string[]; notices?: string[] }, version = 0) {
    if (ids.posts?.length)
      await t.db
        .updateTable('posts')
        .set({ desc_html: version === 0 ? null : '<p>old</p>', body_html: null, render_version: version })
        .where('id', 'in', ids.posts)
        .execute();
    if (ids.comments?.length)
      await t.db
        .updateTable('comments')
        .set({ text_html: null, render_version: version })
        .where('id', 'in', ids.comments)
        .execute();
    if (ids.notices?.length)
      await t.db
        .updateTable('notices')
        .set({ desc_html: '<p>old</p>', render_version: version })
        .where('id', 'in', ids.notices)
        .execute();
  }

  function rerender(options: { batchSize?: number; maxBatches?: number } = {}) {
    const lines: string[] = [];
    return t.app
      .get(RerenderService)
      .run({ ...options, log: (line) => lines.push(line) })
      .then((summary) => ({ ...summary, lines }));
  }

  beforeEach(async () => {
    // Every earlier row current, so each test counts only its own.
    await rerender();
  });

  it('renders rows without HTML or from an older version, and a second run changes nothing and says so', async () => {
    const post = await createPost(t, alice, { desc: `hi @${bob.userName}`, body: '## Part' });
    const commented = (await comment(bob, post._id, '*one*').expect(200)).body as Post;
    const notice = await createNotice(t, alice, { desc: '**notice**' });
    await makeStale({ posts: [post._id], comments: [commented.comments[0]._id] }, 0);
    await makeStale({ notices: [notice._id] }, RENDERER_VERSION + 100);

    const first = await rerender({ batchSize: 2 });
    expect(first).toMatchObject({ complete: true, updated: { posts: 1, comments: 1, notices: 1 } });
    expect(first.lines.at(-1)).toBe(
      `Re-rendered 1 posts, 1 comments, 1 notices with renderer version ${RENDERER_VERSION}`,
    );
    const { body } = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect(body.post).toMatchObject({
      descHtml: `<p>hi <a href="/profile/${bob.id}" class="mention">@${bob.userName}</a></p>\n`,
      bodyHtml: '<h2 id="part">Part</h2>\n',
    });
    expect(body.post.comments[0].textHtml).toBe('<p><em>one</em></p>\n');
    const notices = (await t.http.get(`/api/usernotices/${alice.id}`).expect(200)).body.notices as Notice[];
    expect(notices.find((item) => item._id === notice._id)?.descHtml).toBe('<p><strong>notice</strong></p>\n');
    for (const table of ['posts', 'comments', 'notices'] as const) {
      const stale = await t.db.selectFrom(table).select('id').where('render_version', '<>', RENDERER_VERSION).execute();
      expect(stale).toEqual([]);
    }

    const second = await rerender({ batchSize: 2 });
    expect(second).toMatchObject({ complete: true, updated: { posts: 0, comments: 0, notices: 0 } });
    expect(second.lines).toEqual([
      `Nothing to re-render: every post, comment and notice is at renderer version ${RENDERER_VERSION}`,
    ]);
  });

  it('a run stopped after one batch is carried on by the next, which skips the rows already done', async () => {
    const post = await createPost(t, alice);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const reply = (await comment(bob, post._id, `comment *${i}*`).expect(200)).body as Post;
      ids.push(reply.comments[i]._id);
    }
    await makeStale({ comments: ids });

    const stopped = await rerender({ batchSize: 2, maxBatches: 1 });
    expect(stopped).toMatchObject({ complete: false, updated: { posts: 0, comments: 2, notices: 0 } });
    const left = await t.db.selectFrom('comments').select('id').where('render_version', '=', 0).orderBy('id').execute();
    expect(left.map((row) => row.id)).toEqual([...ids].sort().slice(2));

    const renders = countRenders();
    try {
      const resumed = await rerender({ batchSize: 2 });
      expect(resumed).toMatchObject({ complete: true, updated: { posts: 0, comments: 3, notices: 0 } });
      // Only the three left were rendered: the two done by the stopped run were not read again.
      expect(renders.calls()).toHaveLength(3);
    } finally {
      renders.restore();
    }
    const { body } = await t.http.get(`/api/posts/${post._id}/comments`).expect(200);
    expect((body.comments as Comment[]).map((c) => c.textHtml)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `<p>comment <em>${i}</em></p>\n`),
    );
  });

  it('does not overwrite a text edited while it was being rendered', async () => {
    const post = await createPost(t, alice, { desc: 'before the edit' });
    await makeStale({ posts: [post._id] });
    const markdown = t.app.get(MarkdownService);
    const original = markdown.render.bind(markdown);
    let edited = false;
    const spy = jest.spyOn(markdown, 'render').mockImplementation(async (source, kind) => {
      const html = await original(source, kind);
      // The author saves between the rerender's read and its write.
      if (!edited && source === 'before the edit') {
        edited = true;
        await edit(alice, post, { desc: 'after the edit' }).expect(200);
      }
      return html;
    });
    try {
      const summary = await rerender();
      expect(summary.updated.posts).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const { body } = await t.http.get(`/api/posts/${post._id}`).expect(200);
    expect(body.post).toMatchObject({ desc: 'after the edit', descHtml: '<p>after the edit</p>\n' });
  });

  it('runs as a command on the configured database, printing its progress and a final count', async () => {
    const post = await createPost(t, alice, { desc: 'from the command' });
    await makeStale({ posts: [post._id] });
    const run = () =>
      new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [join(__dirname, '../dist/markdown/rerender.cli.js')], {
          cwd: t.config.dataDir,
          env: {
            ...process.env,
            DATA_DIR: t.config.dataDir,
            DATABASE_URL: t.config.databaseUrl ?? '',
            LOG_LEVEL: 'silent',
          },
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      });
    const first = await run();
    expect(first).toEqual({
      code: 0,
      output: expect.stringContaining(
        `Re-rendered 1 posts, 0 comments, 0 notices with renderer version ${RENDERER_VERSION}`,
      ),
    });
    expect(first.output).toContain('posts: 1 re-rendered');
    expect((await storedPost(post._id)).desc_html).toBe('<p>from the command</p>\n');
    const second = await run();
    expect(second).toEqual({ code: 0, output: expect.stringContaining('Nothing to re-render') });
  });
});

describe('the article on the wire', () => {
  it(`saves an article of ${LIMITS.postBodyMax} three-byte characters (past the 100 KB other bodies get)`, async () => {
    const body = '€'.repeat(LIMITS.postBodyMax);
    const response = await t.http
      .post('/api/createpost')
      .set('Authorization', alice.auth)
      .send({ title: 'Euros', desc: 'Many of them', body })
      .expect(201);
    expect((response.body.post as Post).body).toBe(body);
    const edited = await edit(alice, response.body.post as Post, { body: `${body.slice(1)}$` }).expect(200);
    expect((edited.body as Post).body).toHaveLength(LIMITS.postBodyMax);
  });

  it('refuses an article one character too long with a 400 naming the field, on create and edit', async () => {
    const body = '€'.repeat(LIMITS.postBodyMax + 1);
    const message = `Body must be at most ${LIMITS.postBodyMax} characters`;
    const created = await t.http
      .post('/api/createpost')
      .set('Authorization', alice.auth)
      .send({ title: 'Too long', desc: 'By one', body });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: message });
    const post = await createPost(t, alice);
    const edited = await edit(alice, post, { body });
    expect(edited.status).toBe(400);
    expect(edited.body).toEqual({ error: message });
  });

  it('refuses a body that is not text', async () => {
    const response = await t.http
      .post('/api/createpost')
      .set('Authorization', alice.auth)
      .send({ title: 'Odd', desc: 'Body is a number', body: 42 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Body must be text' });
  });
});
