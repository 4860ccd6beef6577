import { sql } from 'kysely';
import fc from 'fast-check';
import { CATEGORIES } from '@techit/contract/enums';
import type { PostSearchResult, SearchReply, TagSearchResult } from '@techit/contract/api-types';
import { SEARCH } from '@techit/contract/limits';
import { newObjectId } from '../src/common/object-id';
import { hostileString, NASTY_STRINGS } from './support/fuzz-arbitraries';
import { createNotice, createPost, createUser, type TestUser } from './support/factories';
import { postRow } from './support/post-row-factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

/** A word no other test writes: search tests share one database. */
let sequence = 0;
function word(): string {
  sequence += 1;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let n = sequence * 7919 + process.pid;
  let out = '';
  while (n > 0) {
    out += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return `zq${out}`;
}

describe('GET /api/search', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await createUser(t);
    bob = await createUser(t);
  });
  afterAll(() => t.close());

  /** Posts, notices and users all carry `_id` (a tag result is named by `name` instead). */
  type IdResult = Exclude<SearchReply['results'][number], TagSearchResult>;
  async function search(params: Record<string, string | number>): Promise<SearchReply<IdResult>> {
    const response = await t.http.get('/api/search').query(params);
    if (response.status !== 200) throw new Error(`search: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as SearchReply<IdResult>;
  }
  /** Every result type but Tag has an _id. */
  const idsOf = (results: SearchReply['results']) => (results as { _id: string }[]).map((result) => result._id);
  const postIds = async (q: string) => ((await search({ q })).results as PostSearchResult[]).map((post) => post._id);

  it('answers a post result with exactly the contract fields', async () => {
    const w = word();
    const post = await createPost(t, alice, { title: `About ${w}`, desc: 'Some words', body: `The ${w} body` });
    const reply = await search({ q: w });
    expect(reply).toEqual({
      results: [
        {
          _id: post._id,
          title: `About ${w}`,
          snippet: `Some words The <mark>${w}</mark> body`,
          postedBy: post.postedBy,
          tags: [],
          likesCount: 0,
          commentsCount: 0,
          createdAt: post.createdAt,
        },
      ],
      nextCursor: null,
    });
  });

  it("carries each post result's tags, in the post's order", async () => {
    const w = word();
    const tagged = await createPost(t, alice, { title: `Tagged ${w}`, desc: 'x', tags: ['web', 'go'] });
    const plain = await createPost(t, alice, { title: `Plain ${w}`, desc: 'x' });
    const results = (await search({ q: w })).results as PostSearchResult[];
    expect(Object.fromEntries(results.map((post) => [post._id, post.tags]))).toEqual({
      [tagged._id]: ['web', 'go'],
      [plain._id]: [],
    });
  });

  it('puts the title as it is now first: punctuation, capitals and letters beyond ASCII aside, after an edit, never with an unwanted word', async () => {
    const w = word();
    const longer = await createPost(t, alice, { title: `${w} größe and more`, desc: 'x' });
    const exact = await createPost(t, alice, { title: `«${w.toUpperCase()}: GRÖSSE»`, desc: 'x' });
    const umlaut = await createPost(t, alice, { title: `${w.toUpperCase()}… Größe!`, desc: 'x' });
    // `größe` is a title of its own words: the one post whose reduced title is the query comes first.
    expect((await postIds(`${w} größe`))[0]).toBe(umlaut._id);
    expect(await postIds(`${w} grösse`)).toEqual([exact._id]);
    // An edit moves the exact title with it.
    await t.http
      .put(`/api/editpost/${longer._id}`)
      .set('Authorization', alice.auth)
      .send({ title: `${w} Grösse`, desc: 'x', category: 'Informative', link1: '', link2: '', pic: '' })
      .expect(200);
    expect(await postIds(`${w} grösse`)).toEqual([longer._id, exact._id]);
    expect((await postIds(`${w} größe`))[0]).toBe(umlaut._id);
    // An unwanted word anywhere in the post leaves the exact title out too.
    const unwanted = word();
    await t.http
      .put(`/api/editpost/${exact._id}`)
      .set('Authorization', alice.auth)
      .send({ title: `${w} grösse`, desc: `about ${unwanted}`, category: 'Informative', link1: '', link2: '', pic: '' })
      .expect(200);
    expect(await postIds(`${w} grösse -${unwanted}`)).toEqual([longer._id]);
  });

  it("leaves out a muted tag's posts for that signed-in reader only (ranked, exact title and @author)", async () => {
    const w = word();
    const muted = await createPost(t, alice, { title: w, desc: 'x', tags: ['mutedtopic'] });
    const kept = await createPost(t, alice, { title: `Kept ${w}`, desc: 'x', tags: ['other'] });
    await t.http.put('/api/tags/mutedtopic/mute').set('Authorization', bob.auth).expect(200);
    const ids = async (q: string, user?: TestUser) => {
      const request = t.http.get('/api/search').query({ q });
      const response = await (user ? request.set('Authorization', user.auth) : request).expect(200);
      return (response.body as SearchReply<PostSearchResult>).results.map((post) => post._id);
    };
    // The muted post is the exact title: the visitor and alice see it first, bob not at all.
    expect(await ids(w)).toEqual([muted._id, kept._id]);
    expect(await ids(w, alice)).toEqual([muted._id, kept._id]);
    expect(await ids(w, bob)).toEqual([kept._id]);
    expect(await ids(`@${alice.userName}`, bob)).not.toContain(muted._id);
    expect(await ids(`@${alice.userName}`, bob)).toContain(kept._id);
  });

  it('narrows to posts carrying every tag:name, with words, phrases, exclusions and @author; tags alone newest first', async () => {
    const [w, ta, tb] = [word(), word(), word()];
    const one = await createPost(t, alice, { title: `${w} one`, desc: 'x', tags: [ta] });
    const two = await createPost(t, alice, { title: `${w} two`, desc: 'x', tags: [tb, ta] });
    const three = await createPost(t, bob, { title: `${w} three`, desc: 'x', tags: [tb] });
    const other = await createPost(t, alice, { title: 'Other', desc: 'x', tags: [ta] });
    await createPost(t, alice, { title: `${w} untagged`, desc: 'x' });
    // Tags alone: newest first. Written as a post's tag is (case and a leading # dropped).
    expect(await postIds(`tag:${ta}`)).toEqual([other._id, two._id, one._id]);
    expect(await postIds(`TAG:#${ta.toUpperCase()}`)).toEqual([other._id, two._id, one._id]);
    expect(await postIds(`tag:${ta} tag:${tb}`)).toEqual([two._id]);
    expect((await postIds(`${w} tag:${ta}`)).sort()).toEqual([one._id, two._id].sort());
    expect(await postIds(`${w} tag:${ta} -two`)).toEqual([one._id]);
    expect(await postIds(`"${w} two" tag:${ta}`)).toEqual([two._id]);
    expect(await postIds(`tag:${tb} @${bob.userName}`)).toEqual([three._id]);
    expect(await postIds(`${w} tag:${tb} @${alice.userName}`)).toEqual([two._id]);
    // The exact title still comes first inside the tag.
    expect((await postIds(`${w} one tag:${ta}`))[0]).toBe(one._id);
    // A valid tag nobody uses finds nothing.
    expect(await search({ q: `tag:${word()}` })).toEqual({ results: [], nextCursor: null });
    // Paging a tag-only query.
    const first = await search({ q: `tag:${ta}`, limit: 2 });
    const second = await search({ q: `tag:${ta}`, limit: 2, cursor: first.nextCursor ?? '' });
    expect(idsOf([...first.results, ...second.results])).toEqual([other._id, two._id, one._id]);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses tag: without a valid tag name, -tag: and tag: outside posts with a clear 400', async () => {
    for (const query of [
      { q: 'tag:' },
      { q: 'rust tag:-x' },
      { q: 'tag:a_b' },
      { q: `tag:${'a'.repeat(31)}` },
      { q: 'rust -tag:go' },
      { q: 'tag:rust', type: 'notices' },
      { q: 'tag:rust', type: 'users' },
    ]) {
      const response = await t.http.get('/api/search').query(query).expect(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/tag/i) });
    }
  });

  it("shows a muted tag's posts when the search names the tag, but still hides the reader's other muted tags", async () => {
    const [w, named, otherMuted] = [word(), word(), word()];
    const carol = await createUser(t);
    const onlyNamed = await createPost(t, alice, { title: `${w} a`, desc: 'x', tags: [named] });
    const namedAndOther = await createPost(t, alice, { title: `${w} b`, desc: 'x', tags: [named, otherMuted] });
    const onlyOther = await createPost(t, alice, { title: `${w} c`, desc: 'x', tags: [otherMuted] });
    const plain = await createPost(t, alice, { title: `${w} d`, desc: 'x' });
    await t.http.put(`/api/tags/${named}/mute`).set('Authorization', carol.auth).expect(200);
    await t.http.put(`/api/tags/${otherMuted}/mute`).set('Authorization', carol.auth).expect(200);
    const ids = async (q: string, user?: TestUser) => {
      const request = t.http.get('/api/search').query({ q });
      const response = await (user ? request.set('Authorization', user.auth) : request).expect(200);
      return (response.body as SearchReply<PostSearchResult>).results.map((post) => post._id).sort();
    };
    expect(await ids(w, carol)).toEqual([plain._id]);
    expect(await ids(`tag:${named}`, carol)).toEqual([onlyNamed._id]);
    expect(await ids(`${w} tag:${named}`, carol)).toEqual([onlyNamed._id]);
    // The exact-title path obeys the same rule.
    expect(await ids(`${w} a tag:${named}`, carol)).toEqual([onlyNamed._id]);
    expect(await ids(`tag:${named} tag:${otherMuted}`, carol)).toEqual([namedAndOther._id]);
    // namedAndOther also carries `named`, muted and not named this time.
    expect(await ids(`tag:${otherMuted}`, carol)).toEqual([onlyOther._id]);
    expect(await ids(`tag:${named}`)).toEqual([onlyNamed._id, namedAndOther._id].sort());
  });

  it("finds tags in use by the start of their name, most-used first, as Tag with the reader's follow and mute, paged", async () => {
    const p = word();
    for (let i = 0; i < 3; i += 1) await createPost(t, alice, { title: 'T', desc: 'x', tags: [`${p}-one`] });
    for (let i = 0; i < 2; i += 1) await createPost(t, alice, { title: 'T', desc: 'x', tags: [`${p}x`] });
    await createPost(t, alice, { title: 'T', desc: 'x', tags: [`${p}-two`, `${p}-one`] });
    const carol = await createUser(t);
    await t.http.put(`/api/tags/${p}-two/follow`).set('Authorization', carol.auth).expect(200);
    await t.http.put(`/api/tags/${p}x/mute`).set('Authorization', carol.auth).expect(200);
    // Followed, but no post carries it: not listed, as in the autocomplete.
    await t.http.put(`/api/tags/${p}-unused/follow`).set('Authorization', carol.auth).expect(200);
    const tag = (name: string, postsCount: number, followersCount = 0, following = false, muted = false) => ({
      name,
      postsCount,
      followersCount,
      following,
      muted,
    });
    expect(await search({ q: p, type: 'tags' })).toEqual({
      results: [tag(`${p}-one`, 4), tag(`${p}x`, 2), tag(`${p}-two`, 1, 1)],
      nextCursor: null,
    });
    const mine = await t.http
      .get('/api/search')
      .query({ q: ` #${p.toUpperCase()}`, type: 'tags' })
      .set('Authorization', carol.auth)
      .expect(200);
    expect(mine.body).toEqual({
      results: [tag(`${p}-one`, 4), tag(`${p}x`, 2, 0, false, true), tag(`${p}-two`, 1, 1, true)],
      nextCursor: null,
    });
    expect((await search({ q: `${p}-t`, type: 'tags' })).results).toEqual([tag(`${p}-two`, 1, 1)]);
    const first = await search({ q: p, type: 'tags', limit: 2 });
    expect(first.results).toEqual([tag(`${p}-one`, 4), tag(`${p}x`, 2)]);
    expect(await search({ q: p, type: 'tags', limit: 2, cursor: first.nextCursor ?? '' })).toEqual({
      results: [tag(`${p}-two`, 1, 1)],
      nextCursor: null,
    });
    for (const q of ['', '  ', '#', `${p} web`, '-x', 'a_b', 'tag:x', 'a'.repeat(31)]) {
      const response = await t.http.get('/api/search').query({ q, type: 'tags' }).expect(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/tag/i) });
    }
  });

  it('matches a wanted word of 1–2 letters as the start of a word, and marks what it matched', async () => {
    const w = word();
    const post = await createPost(t, alice, { title: w, desc: `using qjv${w} daily` });
    const [result] = (await search({ q: `qj ${w}` })).results as PostSearchResult[];
    expect(result?._id).toBe(post._id);
    expect(result?.snippet).toBe(`using <mark>qjv${w}</mark> daily`);
    // Excluded and longer words stay whole words.
    expect(await postIds(`${w} -qj`)).toEqual([post._id]);
    expect(await postIds(`qjv ${w}`)).toEqual([]);
  });

  it('ranks only the newest SEARCH.rankWindow matches, while an exact title is first at any age', async () => {
    const w = word();
    const exact = await createPost(t, alice, { title: w, desc: 'd' });
    // The strongest ranked hit (the word twice in the title), but older than a full window of matches.
    const strongOld = await createPost(t, alice, { title: `${w} ${w} guide`, desc: 'd' });
    const start = Date.now() + 60_000;
    const rows = Array.from({ length: SEARCH.rankWindow }, (_, i) =>
      postRow({
        id: newObjectId(new Date(start + i * 1000)),
        authorId: alice.id,
        at: new Date(start + i * 1000).toISOString(),
        title: `Window ${i}`,
        category: CATEGORIES[0],
        body: `about ${w}`,
      }),
    );
    // In chunks: SQLite takes at most 32,766 bound values a statement.
    for (let from = 0; from < rows.length; from += 1000) {
      await t.db
        .insertInto('posts')
        .values(rows.slice(from, from + 1000))
        .execute();
    }
    const newest = rows
      .slice(-2)
      .map((row) => row.id)
      .reverse();
    // Ranked over every match, strongOld would be second; the window holds only the newer body
    // hits (equal scores: newest first), so it is not looked at.
    const first = await search({ q: w, limit: 3 });
    expect(idsOf(first.results)).toEqual([exact._id, ...newest]);
    expect(await postIds(w)).not.toContain(strongOld._id);
    // Fewer matches: inside the window, ranked first after the exact title rule.
    expect(await postIds(`${w} guide`)).toEqual([strongOld._id]);
    await t.db
      .deleteFrom('posts')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  });

  it('needs every word, and leaves out -excluded words and phrases', async () => {
    const [a, b, c] = [word(), word(), word()];
    const both = await createPost(t, alice, { title: `${a} ${b}`, desc: 'x' });
    const onlyA = await createPost(t, alice, { title: a, desc: 'x' });
    const withC = await createPost(t, alice, { title: `${a} ${b} ${c}`, desc: 'x' });
    expect((await postIds(`${a} ${b}`)).sort()).toEqual([both._id, withC._id].sort());
    expect(await postIds(`${a} ${b} -${c}`)).toEqual([both._id]);
    expect((await postIds(`${a} -"${b} ${c}"`)).sort()).toEqual([both._id, onlyA._id].sort());
  });

  it('matches "a phrase" only with its words side by side and in order', async () => {
    const [a, b] = [word(), word()];
    const together = await createPost(t, alice, { title: 'Phrase', desc: `${a} ${b} here` });
    await createPost(t, alice, { title: 'Apart', desc: `${b} then ${a}` });
    expect(await postIds(`"${a} ${b}"`)).toEqual([together._id]);
  });

  it('narrows to an author with @userName, and @userName alone lists their matching posts newest first', async () => {
    const w = word();
    const byAlice = await createPost(t, alice, { title: w, desc: 'x' });
    const byBob = await createPost(t, bob, { title: w, desc: 'x' });
    expect(await postIds(`${w} @${bob.userName.toUpperCase()}`)).toEqual([byBob._id]);
    expect(await postIds(`${w} @${alice.userName}`)).toEqual([byAlice._id]);
    const bobsOwn = await postIds(`@${bob.userName}`);
    expect(bobsOwn[0]).toBe(byBob._id);
  });

  it('puts an exact (case-insensitive) title first, then title hits over body hits, then the newest', async () => {
    const [a, b] = [word(), word()];
    const exact = await createPost(t, alice, { title: `${a.toUpperCase()} ${b}!`, desc: 'x' });
    // Every word twice in the title and again in desc: the engines' rank alone would put it first.
    const titleHit = await createPost(t, alice, { title: `${a} ${b}, ${a} ${b}`, desc: `${a} ${b}` });
    const bodyOlder = await createPost(t, alice, { title: 'Other', desc: 'x', body: `${a} ${b}` });
    const bodyNewer = await createPost(t, alice, { title: 'Other', desc: 'x', body: `${a} ${b}` });
    expect(await postIds(`${a} ${b}`)).toEqual([exact._id, titleHit._id, bodyNewer._id, bodyOlder._id]);
  });

  it('forgives one typo in a word of 5+ letters and says which query it answered', async () => {
    const kubernetes = await createPost(t, alice, { title: 'Running kubernetes at home', desc: 'x' });
    const reply = await search({ q: 'kubernets' });
    expect(reply.correctedQuery).toBe('kubernetes');
    expect((reply.results as PostSearchResult[]).map((post) => post._id)).toContain(kubernetes._id);
    // Found as typed: no correction.
    expect((await search({ q: 'kubernetes' })).correctedQuery).toBeUndefined();
    // Short words are never corrected.
    await createPost(t, alice, { title: 'zqxy', desc: 'x' });
    expect(await search({ q: 'zqxz' })).toEqual({ results: [], nextCursor: null });
  });

  it('corrects a typo only to a word some post still holds: an edit or a delete that drops it is seen at once', async () => {
    // PostgreSQL keeps the indexed words with their post counts in post_search_words (a trigger).
    const w = `typo${word()}`;
    const typo = `${w.slice(0, -1)}${w.endsWith('z') ? 'y' : 'z'}`;
    const post = await createPost(t, alice, { title: 'Spelling', desc: `about ${w}` });
    expect((await search({ q: typo })).correctedQuery).toBe(w);
    const edited = await t.http
      .put(`/api/editpost/${post._id}`)
      .set('Authorization', alice.auth)
      .send({ title: 'Spelling', desc: 'about nothing', body: '', category: CATEGORIES[0] });
    expect(edited.status).toBe(200);
    expect(await search({ q: typo })).toEqual({ results: [], nextCursor: null });
    const again = await createPost(t, alice, { title: 'Spelling', desc: `about ${w}` });
    expect((await search({ q: typo })).correctedQuery).toBe(w);
    await t.http.delete(`/api/deletepost/${again._id}`).set('Authorization', alice.auth).expect(200);
    expect(await search({ q: typo })).toEqual({ results: [], nextCursor: null });
  });

  it('keeps its word counts exact under concurrent creates, edits and deletes that share words, answering each', async () => {
    // Each post swaps between two word sets the others share, so concurrent writes touch the same
    // words (PostgreSQL's post_search_words rows) in every order: none may fail or lose a count.
    const [a, b, c, d] = [word(), word(), word(), word()];
    const posts = [];
    for (let i = 0; i < 8; i += 1) {
      posts.push(
        await createPost(t, alice, { title: `Shared ${i}`, desc: i % 2 ? `${a} ${b} ${c}` : `${d} ${c} ${b}` }),
      );
    }
    const writes = await Promise.all([
      ...posts.slice(0, 6).map((post, i) =>
        t.http
          .put(`/api/editpost/${post._id}`)
          .set('Authorization', alice.auth)
          .send({ title: `Shared ${i}`, desc: i % 2 ? `${d} ${c}` : `${a} ${b}`, category: CATEGORIES[0] }),
      ),
      ...posts.slice(6).map((post) => t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', alice.auth)),
      ...[0, 1].map((i) =>
        t.http
          .post('/api/createpost')
          .set('Authorization', alice.auth)
          .send({ title: `New ${i}`, desc: `${c} ${a} ${d}` }),
      ),
    ]);
    expect(writes.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 201, 201]);
    // Every word is found in exactly the posts that now hold it.
    const holding = async (w: string) => (await postIds(w)).length;
    expect(await Promise.all([a, b, c, d].map(holding))).toEqual([5, 3, 5, 5]);
    if (t.dialect === 'postgres') {
      const { rows } = await sql<{ word: string; docs: number; actual: number }>`
        select w.word, w.docs, coalesce(s.ndoc, 0)::integer as actual
        from post_search_words w left join ts_stat('select document from post_search') s on s.word = w.word
        where w.word in (${sql.join([a, b, c, d])})`.execute(t.db);
      expect(rows.filter((row) => row.docs !== row.actual)).toEqual([]);
      expect(rows).toHaveLength(4);
    }
  });

  it('finds a created post, an edited one by its new words only, and not a deleted one, in the very next search', async () => {
    const [first, second] = [word(), word()];
    const post = await createPost(t, alice, { title: first, desc: 'x' });
    expect(await postIds(first)).toEqual([post._id]);
    const edited = await t.http
      .put(`/api/editpost/${post._id}`)
      .set('Authorization', alice.auth)
      .send({ title: 'Renamed', desc: 'x', body: second, category: CATEGORIES[0] });
    expect(edited.body).toEqual(expect.objectContaining({ _id: post._id, title: 'Renamed' }));
    expect(await postIds(first)).toEqual([]);
    expect(await postIds(second)).toEqual([post._id]);
    await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', alice.auth).expect(200);
    expect(await postIds(second)).toEqual([]);
  });

  it('escapes everything in a snippet but its own <mark>s', async () => {
    const w = word();
    await createPost(t, alice, {
      title: 'Hostile',
      desc: `<script>alert(1)</script> <mark>typed</mark> &amp; "${w}" <img src=x onerror=alert(1)>`,
    });
    const [result] = (await search({ q: w })).results as PostSearchResult[];
    expect(result?.snippet).toBe(
      `&#60;script&#62;alert(1)&#60;/script&#62; &#60;mark&#62;typed&#60;/mark&#62; &#38;amp; &#34;<mark>${w}</mark>&#34; &#60;img src=x onerror=alert(1)&#62;`,
    );
    expect(result?.snippet.replaceAll('<mark>', '').replaceAll('</mark>', '')).not.toMatch(/[<>]/);
  });

  it('pages by an opaque cursor without repeats, and refuses a bad cursor or limit with 400', async () => {
    const w = word();
    const created = [];
    for (let i = 0; i < 5; i += 1) created.push(await createPost(t, alice, { title: `${w} number ${i}`, desc: 'x' }));
    const first = await search({ q: w, limit: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await search({ q: w, limit: 2, cursor: first.nextCursor ?? '' });
    const third = await search({ q: w, limit: 2, cursor: second.nextCursor ?? '' });
    expect(third.nextCursor).toBeNull();
    const seen = idsOf([...first.results, ...second.results, ...third.results]);
    expect(seen.sort()).toEqual(created.map((post) => post._id).sort());
    for (const query of [
      { q: w, cursor: 'nope' },
      { q: w, cursor: Buffer.from('search:-1').toString('base64url') },
      { q: w, cursor: Buffer.from(`search:${SEARCH.depthMax}`).toString('base64url') },
      { q: w, limit: 0 },
      { q: w, limit: 51 },
      { q: w, type: 'things' },
      { q: 'x'.repeat(SEARCH.queryMax + 1) },
      {},
    ]) {
      const response = await t.http.get('/api/search').query(query).expect(400);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
    expect((await search({ q: w })).results).toHaveLength(5);
  });

  it('finds notices on their text and users on userName, position and bio', async () => {
    const w = word();
    const notice = await createNotice(t, alice, { desc: `Meet-up about ${w} on Friday` });
    const reply = await search({ q: w, type: 'notices' });
    expect(reply).toEqual({
      results: [
        {
          _id: notice._id,
          snippet: `Meet-up about <mark>${w}</mark> on Friday`,
          postedBy: notice.postedBy,
          createdAt: notice.createdAt,
        },
      ],
      nextCursor: null,
    });
    const carol = await createUser(t, { userName: `${w}_carol` });
    const dave = await createUser(t);
    await t.http
      .put('/api/position')
      .set('Authorization', dave.auth)
      .send({ position: `Senior ${w} engineer` })
      .expect(200);
    const users = await search({ q: w, type: 'users' });
    expect(idsOf(users.results)).toEqual([carol.id, dave.id]);
    expect(idsOf((await search({ q: `${w}_car`, type: 'users' })).results)).toEqual([carol.id]);
  });

  it('never answers 500 to hostile queries, and a refusal is exactly { error }', async () => {
    const fixed = [
      '"',
      '"unbalanced',
      '***',
      'NEAR(a b)',
      'title:x',
      '-',
      '- -',
      '--x',
      '@',
      '@@',
      'a AND OR NOT b',
      '^x',
      "'; drop table posts; --",
      'x'.repeat(SEARCH.queryMax),
      'a '.repeat(SEARCH.queryMax / 2),
      '(',
      ')',
      '{title}: x',
      'tag:',
      '\u0000',
      ...NASTY_STRINGS,
    ];
    const hostile = fc.oneof(
      fc.constantFrom(...fixed),
      hostileString.filter((q) => q.length <= 1000),
      fc.string({ maxLength: 60 }),
    );
    const types = fc.constantFrom('posts', 'notices', 'users', 'tags');
    await expectDatabaseUnchanged(t.db, () =>
      fc.assert(
        fc.asyncProperty(hostile, types, async (q, type) => {
          const response = await t.http.get('/api/search').query({ q, type });
          expect([200, 400]).toContain(response.status);
          if (response.status === 400) expect(response.body).toEqual({ error: expect.any(String) });
          // Many tests' posts hold the word "x", so a one-letter query may well have a next page.
          else {
            const { nextCursor } = response.body as SearchReply;
            expect(response.body).toEqual({
              results: expect.any(Array),
              nextCursor: nextCursor === null ? null : expect.any(String),
            });
          }
        }),
        { numRuns: 60 },
      ),
    );
  });
});
