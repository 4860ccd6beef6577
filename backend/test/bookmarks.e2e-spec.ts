import type { BookmarksReply, Post } from '@techit/contract/api-types';
import { CATEGORIES } from '@techit/contract/enums';
import { BOOKMARKS } from '@techit/contract/limits';
import { createPost, createUser, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

/**
 * Bookmarks (issue 19, docs/decisions/043-bookmarks.md): private, idempotent, newest saved first
 * by keyset, searched within with the search feature's index, and `bookmarked` in every Post reply
 * describing the reader alone.
 */
describe('bookmarks', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(() => t.close());

  const bookmark = (user: TestUser, postId: string) =>
    t.http.put('/api/bookmark').set('Authorization', user.auth).send({ postId });
  const unbookmark = (user: TestUser, postId: string) =>
    t.http.put('/api/unbookmark').set('Authorization', user.auth).send({ postId });
  const list = (user: TestUser, query = '') => t.http.get(`/api/bookmarks${query}`).set('Authorization', user.auth);
  const rowsOf = (userId: string) =>
    t.db.selectFrom('bookmarks').select(['post_id', 'created_at']).where('user_id', '=', userId).execute();

  /** Every page of the list, by cursor: the post ids in order. */
  async function walk(user: TestUser, query: string, limit: number, between?: () => Promise<void>): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages += 1) {
      const separator = query === '' ? '?' : '&';
      const path: string = `${query === '' ? '' : `?${query}`}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await list(user, path).expect(200);
      const body = response.body as BookmarksReply;
      expect(body.posts.length).toBeLessThanOrEqual(limit);
      ids.push(...body.posts.map((post) => post._id));
      cursor = body.nextCursor;
      if (!cursor) return ids;
      await between?.();
    }
    throw new Error('the list never ended');
  }

  describe('saving and taking back', () => {
    it('saves once however often it is asked, answering the same each time', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      const first = await bookmark(reader, post._id).expect(200);
      const second = await bookmark(reader, post._id).expect(200);
      expect(first.body).toEqual({ _id: post._id, bookmarked: true });
      expect(second.body).toEqual(first.body);
      const rows = await rowsOf(reader.id);
      expect(rows).toHaveLength(1);
      // A second save keeps the first's time: the post keeps its place in the list.
      await bookmark(reader, post._id).expect(200);
      expect(await rowsOf(reader.id)).toEqual(rows);
    });

    it('takes a bookmark back, and taking back one that is not there is fine and changes nothing', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await bookmark(reader, post._id).expect(200);
      const removed = await unbookmark(reader, post._id).expect(200);
      expect(removed.body).toEqual({ _id: post._id, bookmarked: false });
      expect(await rowsOf(reader.id)).toEqual([]);
      await expectDatabaseUnchanged(t.db, async () => {
        const again = await unbookmark(reader, post._id).expect(200);
        expect(again.body).toEqual({ _id: post._id, bookmarked: false });
      });
    });

    it.each([
      ['a malformed id', 400, 'not-an-id'],
      ['an id of no post', 404, '0123456789abcdef01234567'],
      ['no id', 400, undefined],
      ['an id that is not text', 400, 42],
    ])('refuses %s with %i and changes nothing', async (_name, status, postId) => {
      const reader = await createUser(t);
      for (const path of ['/api/bookmark', '/api/unbookmark']) {
        await expectDatabaseUnchanged(t.db, async () => {
          const response = await t.http.put(path).set('Authorization', reader.auth).send({ postId });
          expect(response.status).toBe(status);
          expect(typeof response.body.error).toBe('string');
        });
      }
    });

    it('refuses every bookmarks call without a session with 401, changing nothing', async () => {
      const author = await createUser(t);
      const post = await createPost(t, author);
      await expectDatabaseUnchanged(t.db, async () => {
        for (const path of ['/api/bookmark', '/api/unbookmark']) {
          const response = await t.http.put(path).send({ postId: post._id });
          expect(response.status).toBe(401);
          expect(typeof response.body.error).toBe('string');
        }
        const listed = await t.http.get('/api/bookmarks');
        expect(listed.status).toBe(401);
        expect(typeof listed.body.error).toBe('string');
      });
    });

    it("a deleted post takes its bookmarks with it, from every reader's list", async () => {
      const [author, reader, other] = [await createUser(t), await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      const kept = await createPost(t, author);
      for (const user of [reader, other]) {
        await bookmark(user, post._id).expect(200);
        await bookmark(user, kept._id).expect(200);
      }
      await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', author.auth).expect(200);
      expect(await t.db.selectFrom('bookmarks').selectAll().where('post_id', '=', post._id).execute()).toEqual([]);
      for (const user of [reader, other]) {
        const body = (await list(user).expect(200)).body as BookmarksReply;
        expect(body.posts.map((p) => p._id)).toEqual([kept._id]);
      }
      // Gone: saving it again is a 404, taking it back too.
      await bookmark(reader, post._id).expect(404);
      await unbookmark(reader, post._id).expect(404);
    });
  });

  describe('privacy', () => {
    it("lists only the caller's own bookmarks, and nobody else's can be asked for", async () => {
      const [author, ana, bob] = [await createUser(t), await createUser(t), await createUser(t)];
      const anas = await createPost(t, author, { title: 'Ana saves this' });
      const bobs = await createPost(t, author, { title: 'Bob saves this' });
      await bookmark(ana, anas._id).expect(200);
      await bookmark(bob, bobs._id).expect(200);
      const forAna = (await list(ana).expect(200)).body as BookmarksReply;
      const forBob = (await list(bob).expect(200)).body as BookmarksReply;
      expect(forAna.posts.map((p) => p._id)).toEqual([anas._id]);
      expect(forBob.posts.map((p) => p._id)).toEqual([bobs._id]);
      // No parameter names another reader: one naming Ana still lists Bob's own.
      const asked = (await list(bob, `?userId=${ana.id}`).expect(200)).body as BookmarksReply;
      expect(asked.posts.map((p) => p._id)).toEqual([bobs._id]);
    });

    it('bookmarked describes only the reader: visitors and other readers see false', async () => {
      const [author, ana, bob] = [await createUser(t), await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await bookmark(ana, post._id).expect(200);
      const as = (user?: TestUser) => {
        const request = t.http.get(`/api/posts/${post._id}?view=compact`);
        return user ? request.set('Authorization', user.auth) : request;
      };
      expect((await as(ana).expect(200)).body.post.bookmarked).toBe(true);
      expect((await as(bob).expect(200)).body.post.bookmarked).toBe(false);
      expect((await as(author).expect(200)).body.post.bookmarked).toBe(false);
      expect((await as().expect(200)).body.post.bookmarked).toBe(false);
    });
  });

  describe('bookmarked in every reply carrying a post', () => {
    let author: TestUser;
    let reader: TestUser;
    let saved: Post;
    let notSaved: Post;

    beforeAll(async () => {
      author = await createUser(t);
      reader = await createUser(t);
      saved = await createPost(t, author, { title: 'Saved one', tags: ['bookmarked-shape'] });
      notSaved = await createPost(t, author, { title: 'Not saved', tags: ['bookmarked-shape'] });
      await bookmark(reader, saved._id).expect(200);
    });

    const lists: [string, () => string, string][] = [
      ['the for-you feed', () => '/api/posts?limit=50', 'posts'],
      ['the hot feed', () => '/api/posts?feed=hot&limit=50', 'posts'],
      ['a tag feed', () => '/api/posts?feed=tag&tag=bookmarked-shape', 'posts'],
      ["a user's posts", () => `/api/userposts/${author.id}`, 'userPosts'],
    ];

    it.each(lists.flatMap(([name, path, key]) => ['full', 'compact'].map((view) => [name, view, path, key] as const)))(
      '%s (%s view) marks the saved post for its reader and nothing for others',
      async (_name, view, path, key) => {
        const url = `${path()}&view=${view}`.replace(/^([^?]*)&/, '$1?');
        const mine = (await t.http.get(url).set('Authorization', reader.auth).expect(200)).body[key] as Post[];
        const theirs = (await t.http.get(url).set('Authorization', author.auth).expect(200)).body[key] as Post[];
        const visitors = (await t.http.get(url).expect(200)).body[key] as Post[];
        const state = (posts: Post[]) =>
          posts.filter((p) => [saved._id, notSaved._id].includes(p._id)).map((p) => [p._id, p.bookmarked]);
        expect(state(mine)).toEqual(
          expect.arrayContaining([
            [saved._id, true],
            [notSaved._id, false],
          ]),
        );
        expect(state(mine)).toHaveLength(2);
        for (const other of [theirs, visitors]) {
          expect(state(other)).toEqual(
            expect.arrayContaining([
              [saved._id, false],
              [notSaved._id, false],
            ]),
          );
        }
        // Every post of every list carries it, as a boolean.
        for (const post of [...mine, ...theirs, ...visitors]) expect(typeof post.bookmarked).toBe('boolean');
      },
    );

    it.each(['full', 'compact'])('a single post (%s view) says it for its reader', async (view) => {
      const mine = await t.http.get(`/api/posts/${saved._id}?view=${view}`).set('Authorization', reader.auth);
      expect(mine.body.post.bookmarked).toBe(true);
      const visitor = await t.http.get(`/api/posts/${saved._id}?view=${view}`);
      expect(visitor.body.post.bookmarked).toBe(false);
    });

    it('the write replies carrying a post say it for the writer: createpost, editpost, comment, comment edit and delete, deletepost', async () => {
      const created = await t.http
        .post('/api/createpost')
        .set('Authorization', reader.auth)
        .send({ title: 'Mine', desc: 'My post' })
        .expect(201);
      const id = created.body.post._id as string;
      expect(created.body.post.bookmarked).toBe(false);
      await bookmark(reader, id).expect(200);
      const edited = await t.http
        .put(`/api/editpost/${id}`)
        .set('Authorization', reader.auth)
        .send({ title: 'Mine, edited', desc: 'My post', category: CATEGORIES[0] })
        .expect(200);
      expect(edited.body.bookmarked).toBe(true);
      const commented = await t.http
        .put('/api/comment')
        .set('Authorization', reader.auth)
        .send({ postId: id, text: 'a note' })
        .expect(200);
      expect(commented.body.bookmarked).toBe(true);
      const commentId = (commented.body.comments as { _id: string }[])[0]._id;
      // Someone else commenting on it sees their own state: they did not save it.
      const theirs = await t.http
        .put('/api/comment')
        .set('Authorization', author.auth)
        .send({ postId: id, text: 'hello' })
        .expect(200);
      expect(theirs.body.bookmarked).toBe(false);
      const reworded = await t.http
        .put(`/api/comment/${id}/${commentId}`)
        .set('Authorization', reader.auth)
        .send({ text: 'a better note' })
        .expect(200);
      expect(reworded.body.bookmarked).toBe(true);
      const uncommented = await t.http
        .delete(`/api/comment/${id}/${commentId}`)
        .set('Authorization', reader.auth)
        .expect(200);
      expect(uncommented.body.bookmarked).toBe(true);
      const deleted = await t.http.delete(`/api/deletepost/${id}`).set('Authorization', reader.auth).expect(200);
      expect(deleted.body.bookmarked).toBe(true);
    });

    it('the bookmarks list marks every post bookmarked, with when it was saved', async () => {
      const body = (await list(reader).expect(200)).body as BookmarksReply;
      expect(body.posts.length).toBeGreaterThan(0);
      const rows = await rowsOf(reader.id);
      for (const post of body.posts) {
        expect(post.bookmarked).toBe(true);
        expect(post.bookmarkedAt).toBe(rows.find((row) => row.post_id === post._id)?.created_at);
        // Compact, as the feeds carry it: no article, at most the 3 newest comments.
        expect(post.body).toBeUndefined();
        expect(post.comments.length).toBeLessThanOrEqual(3);
      }
    });
  });

  describe('paging', () => {
    it('lists newest saved first (not newest written), walking pages by cursor with no repeats and no skips', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const posts: Post[] = [];
      for (let i = 0; i < 7; i += 1) posts.push(await createPost(t, author, { title: `Paged ${i}` }));
      // Saved in an order unlike the posts' own: 3, 0, 6, 1, 5, 2, 4.
      const order = [3, 0, 6, 1, 5, 2, 4].map((i) => posts[i]._id);
      for (const id of order) await bookmark(reader, id).expect(200);
      const expected = [...order].reverse();
      expect(await walk(reader, '', 3)).toEqual(expected);
      expect(await walk(reader, '', BOOKMARKS.maxLimit)).toEqual(expected);
      const first = (await list(reader, '?limit=3').expect(200)).body as BookmarksReply;
      expect(first.nextCursor).not.toBeNull();
      const all = (await list(reader, '?limit=7').expect(200)).body as BookmarksReply;
      expect(all.nextCursor).toBeNull();
    });

    it('walks on without a repeat when new bookmarks arrive between pages (they land above the first page)', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const early: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        const post = await createPost(t, author);
        await bookmark(reader, post._id).expect(200);
        early.push(post._id);
      }
      const late: string[] = [];
      const seen = await walk(reader, '', 2, async () => {
        const post = await createPost(t, author);
        await bookmark(reader, post._id).expect(200);
        late.push(post._id);
        // Saving again one already listed changes nothing either.
        await bookmark(reader, early[early.length - 1]).expect(200);
      });
      expect(seen).toEqual([...early].reverse());
      expect(late.length).toBeGreaterThan(0);
      const now = await walk(reader, '', 50);
      expect(now).toEqual([...late.reverse(), ...[...early].reverse()]);
    });

    it.each([
      ['limit=0', 'limit'],
      [`limit=${BOOKMARKS.maxLimit + 1}`, 'limit'],
      ['limit=two', 'limit'],
      ['cursor=nonsense', 'cursor'],
      ['tag=Not%20a%20tag!', 'tag'],
      ['tag=', 'tag'],
      ['q=%40%40%40', 'q'],
      [`q=${'a'.repeat(300)}`, 'q'],
      ['q=tag%3A%21%21', 'q'],
    ])('refuses %s with 400 {error}, changing nothing', async (query) => {
      const reader = await createUser(t);
      await expectDatabaseUnchanged(t.db, async () => {
        const response = await list(reader, `?${query}`);
        expect(response.status).toBe(400);
        expect(typeof response.body.error).toBe('string');
      });
    });
  });

  describe('searching within and filtering by tag', () => {
    let author: TestUser;
    let reader: TestUser;
    let other: TestUser;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      [author, reader, other] = [await createUser(t), await createUser(t), await createUser(t)];
      const make = async (key: string, fields: Record<string, unknown>) => {
        ids[key] = (await createPost(t, author, fields))._id;
      };
      await make('kubeRust', { title: 'Kubernetes operators', desc: 'Written in Rust', tags: ['rust', 'k8s'] });
      await make('kubeGo', { title: 'Kubernetes controllers', desc: 'Written in Go', tags: ['go', 'k8s'] });
      await make('rustOnly', { title: 'Borrow checker notes', desc: 'Lifetimes explained', tags: ['rust'] });
      await make('unsaved', { title: 'Kubernetes not saved', desc: 'Rust too', tags: ['rust', 'k8s'] });
      await make('otherSaved', { title: 'Kubernetes of another reader', desc: 'Rust', tags: ['rust'] });
      for (const key of ['kubeRust', 'kubeGo', 'rustOnly']) await bookmark(reader, ids[key]).expect(200);
      await bookmark(other, ids.otherSaved).expect(200);
    });

    const found = async (query: string, user = reader) =>
      ((await list(user, query).expect(200)).body as BookmarksReply).posts.map((post) => post._id);

    it("q matches only the reader's own bookmarks, newest saved first", async () => {
      expect(await found('?q=kubernetes')).toEqual([ids.kubeGo, ids.kubeRust]);
      expect(await found('?q=kubernetes', other)).toEqual([ids.otherSaved]);
      // The query language of search: a word start, a phrase, an exclusion, @author, tag:.
      expect(await found('?q=ku')).toEqual([ids.kubeGo, ids.kubeRust]);
      expect(await found('?q=%22borrow%20checker%22')).toEqual([ids.rustOnly]);
      expect(await found('?q=kubernetes%20-rust')).toEqual([ids.kubeGo]);
      expect(await found(`?q=%40${author.userName}`)).toEqual([ids.rustOnly, ids.kubeGo, ids.kubeRust]);
      expect(await found('?q=tag%3Ago')).toEqual([ids.kubeGo]);
      expect(await found('?q=nothingmatchesthis')).toEqual([]);
      // A blank box is the whole list.
      expect(await found('?q=%20')).toEqual([ids.rustOnly, ids.kubeGo, ids.kubeRust]);
    });

    it("tag filters by a tag's normalised name, and combines with q", async () => {
      expect(await found('?tag=rust')).toEqual([ids.rustOnly, ids.kubeRust]);
      expect(await found('?tag=%23Rust')).toEqual([ids.rustOnly, ids.kubeRust]);
      expect(await found('?tag=k8s&q=go')).toEqual([ids.kubeGo]);
      expect(await found('?tag=rust&q=kubernetes')).toEqual([ids.kubeRust]);
      expect(await found('?tag=nobody-uses-this')).toEqual([]);
    });

    it('pages a search within by cursor like the whole list', async () => {
      const first = (await list(reader, '?q=written&limit=1').expect(200)).body as BookmarksReply;
      expect(first.posts.map((p) => p._id)).toEqual([ids.kubeGo]);
      const second = (await list(reader, `?q=written&limit=1&cursor=${first.nextCursor}`).expect(200))
        .body as BookmarksReply;
      expect(second.posts.map((p) => p._id)).toEqual([ids.kubeRust]);
      expect(second.nextCursor).toBeNull();
    });
  });
});
