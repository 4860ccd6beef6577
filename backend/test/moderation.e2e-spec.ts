import type {
  Comment,
  ModerationLogReply,
  Notice,
  Post,
  ReportQueueReply,
  ResolveReportsReply,
} from '@techit/contract/api-types';
import { REMOVED_AUTHOR } from '@techit/contract/api-types';
import { MODERATION } from '@techit/contract/limits';
import { newObjectId } from '../src/common/object-id';
import { createNotice, createPost, createUser, makeAdmin, makeModerator, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

/**
 * Moderation (issue 20, docs/decisions/047-moderation.md): reports and their dedupe, the queue
 * grouped by target and worst first, what each resolution does to feeds, search, threads,
 * notifications, feed files and pages, roles, suspension and the public log.
 */
describe('moderation', () => {
  let t: TestApp;
  let moderator: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    moderator = await createUser(t);
    await makeModerator(t, moderator);
    admin = await createUser(t);
    await makeAdmin(t, admin);
  });

  afterAll(() => t.close());

  const report = (user: TestUser, body: Record<string, unknown>) =>
    t.http.post('/api/reports').set('Authorization', user.auth).send(body);
  const queue = (user: TestUser, query = '') => t.http.get(`/api/reports${query}`).set('Authorization', user.auth);
  const resolve = (user: TestUser, kind: string, id: string, body: Record<string, unknown>) =>
    t.http.put(`/api/reports/${kind}/${id}/resolve`).set('Authorization', user.auth).send(body);
  const groupOf = async (kind: string, id: string, status = 'open') => {
    for (let cursor: string | null = null, pages = 0; pages < 100; pages += 1) {
      const response = await queue(moderator, `?status=${status}${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      const body = response.body as ReportQueueReply;
      const found = body.reports.find((group) => group.targetKind === kind && group.targetId === id);
      if (found) return found;
      cursor = body.nextCursor;
      if (!cursor) return undefined;
    }
    throw new Error('the queue never ended');
  };

  describe('reports', () => {
    it('files a report, and a second open report of the same target by the same person changes nothing', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      const first = await report(reader, { targetKind: 'post', targetId: post._id, reason: 'spam', note: ' buy now ' });
      expect(first.status).toBe(201);
      expect(first.body.report).toMatchObject({
        targetKind: 'post',
        targetId: post._id,
        reason: 'spam',
        note: 'buy now',
        status: 'open',
      });
      await expectDatabaseUnchanged(t.db, async () => {
        const second = await report(reader, { targetKind: 'post', targetId: post._id, reason: 'harassment' });
        expect(second.status).toBe(201);
        expect(second.body).toEqual(first.body);
      });
      const rows = await t.db.selectFrom('reports').selectAll().where('target_id', '=', post._id).execute();
      expect(rows).toHaveLength(1);
    });

    it.each([
      ['an unknown kind', { targetKind: 'draft', reason: 'spam' }, 400],
      ['an unknown reason', { targetKind: 'post', reason: 'boring' }, 400],
      ['no reason', { targetKind: 'post' }, 400],
      ['a malformed id', { targetKind: 'post', targetId: 'nope', reason: 'spam' }, 400],
      ['an id of no post', { targetKind: 'post', targetId: '0123456789abcdef01234567', reason: 'spam' }, 404],
      ['an id of no user', { targetKind: 'user', targetId: '0123456789abcdef01234567', reason: 'spam' }, 404],
      ['a note too long', { targetKind: 'post', reason: 'other', note: 'x'.repeat(MODERATION.noteMax + 1) }, 400],
    ])('refuses %s and changes nothing', async (_name, body, status) => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await expectDatabaseUnchanged(t.db, async () => {
        const response = await report(reader, { targetId: post._id, ...body });
        expect(response.status).toBe(status);
        expect(typeof response.body.error).toBe('string');
      });
    });

    it('refuses a visitor (401) and one reporting their own post or themselves (400), changing nothing', async () => {
      const author = await createUser(t);
      const post = await createPost(t, author);
      await expectDatabaseUnchanged(t.db, async () => {
        await t.http.post('/api/reports').send({ targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(401);
        await report(author, { targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(400);
        await report(author, { targetKind: 'user', targetId: author.id, reason: 'spam' }).expect(400);
      });
    });
  });

  describe('roles', () => {
    it('gives a member 403 everywhere in the queue, and changes nothing', async () => {
      const [author, member] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await report(member, { targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(201);
      await expectDatabaseUnchanged(t.db, async () => {
        expect((await queue(member)).status).toBe(403);
        expect((await queue(member, '?status=resolved')).status).toBe(403);
        for (const action of ['dismiss', 'remove', 'suspend-author']) {
          const response = await resolve(member, 'post', post._id, { action, reason: 'no' });
          expect(response.status).toBe(403);
          expect(response.body.error).toBe('Only moderators and admins can see the reports');
        }
        await t.http
          .put(`/api/admin/users/${member.id}/role`)
          .set('Authorization', member.auth)
          .send({ role: 'admin' })
          .expect(403);
        await t.http.get('/api/reports').expect(401);
      });
    });

    it('lets an admin set a role (a moderator may not), and says "moderator" in the replies', async () => {
      const member = await createUser(t);
      await expectDatabaseUnchanged(t.db, async () => {
        await t.http
          .put(`/api/admin/users/${member.id}/role`)
          .set('Authorization', moderator.auth)
          .send({ role: 'moderator' })
          .expect(403);
        await t.http
          .put(`/api/admin/users/${member.id}/role`)
          .set('Authorization', admin.auth)
          .send({ role: 'member-of-nothing' })
          .expect(400);
      });
      const set = await t.http
        .put(`/api/admin/users/${member.id}/role`)
        .set('Authorization', admin.auth)
        .send({ role: 'moderator' })
        .expect(200);
      expect(set.body.role).toBe('moderator');
      const signIn = await t.http.post('/api/signin').send({ userName: member.userName, password: member.password });
      expect(signIn.body.user.role).toBe('moderator');
      await queue(member).expect(200);
      await t.http
        .put(`/api/admin/users/${member.id}/role`)
        .set('Authorization', admin.auth)
        .send({ role: 'user' })
        .expect(200);
      await queue(member).expect(403);
    });
  });

  describe('the queue', () => {
    it('groups by target with its count, reasons, notes, first and last report, worst first', async () => {
      const author = await createUser(t);
      const reporters = [await createUser(t), await createUser(t), await createUser(t)];
      const [once, thrice, twice] = [
        await createPost(t, author),
        await createPost(t, author),
        await createPost(t, author),
      ];
      await report(reporters[0], { targetKind: 'post', targetId: once._id, reason: 'other' }).expect(201);
      await report(reporters[0], {
        targetKind: 'post',
        targetId: thrice._id,
        reason: 'spam',
        note: 'a link farm',
      }).expect(201);
      await report(reporters[1], { targetKind: 'post', targetId: thrice._id, reason: 'spam' }).expect(201);
      await report(reporters[0], { targetKind: 'post', targetId: twice._id, reason: 'off-topic' }).expect(201);
      await report(reporters[2], { targetKind: 'post', targetId: thrice._id, reason: 'harassment' }).expect(201);
      await report(reporters[1], { targetKind: 'post', targetId: twice._id, reason: 'off-topic' }).expect(201);

      const body = (await queue(moderator).expect(200)).body as ReportQueueReply;
      const mine = body.reports.filter((group) => [once._id, thrice._id, twice._id].includes(group.targetId));
      expect(mine.map((group) => group.targetId)).toEqual([thrice._id, twice._id, once._id]);
      expect(mine[0]).toMatchObject({
        targetKind: 'post',
        count: 3,
        reasons: { spam: 2, harassment: 1 },
        notes: ['a link farm'],
        status: 'open',
        target: {
          excerpt: thrice.title,
          author: { _id: author.id, userName: author.userName },
          removed: false,
          suspendedUntil: null,
        },
      });
      expect(mine[0].firstReportedAt < mine[0].lastReportedAt).toBe(true);
      expect(mine[1]).toMatchObject({ count: 2, reasons: { 'off-topic': 2 } });
      // Counts of the whole queue run worst first.
      const counts = body.reports.map((group) => group.count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    });

    it('pages by cursor without repeating or skipping a target, ties by the latest report', async () => {
      const reporter = await createUser(t);
      const base = Date.parse('2030-01-01T00:00:00.000Z');
      // 45 targets nobody else reports (they need not exist: the queue says so with excerpt null).
      const ids = Array.from({ length: 45 }, (_unused, index) => newObjectId(new Date(base + index * 1000)));
      await t.db
        .insertInto('reports')
        .values(
          ids.map((id, index) => ({
            id: newObjectId(new Date(base + index * 1000)),
            reporter_id: reporter.id,
            target_kind: 'comment',
            target_id: id,
            reason: 'spam',
            note: '',
            status: 'open',
            created_at: new Date(base + index * 1000).toISOString(),
          })),
        )
        .execute();
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 100; pages += 1) {
        const response = await queue(moderator, cursor ? `?cursor=${cursor}` : '').expect(200);
        const body = response.body as ReportQueueReply;
        expect(body.reports.length).toBeLessThanOrEqual(MODERATION.queuePageSize);
        seen.push(...body.reports.filter((group) => ids.includes(group.targetId)).map((group) => group.targetId));
        cursor = body.nextCursor;
        if (!cursor) break;
      }
      // One report each: the newest report first.
      expect(seen).toEqual([...ids].reverse());
      const missing = (await groupOf('comment', ids[0]))?.target;
      expect(missing).toEqual({ excerpt: null, author: null, removed: false, suspendedUntil: null });
      await t.db.deleteFrom('reports').where('target_id', 'in', ids).execute();
    });

    it('refuses a bad status or cursor with 400', async () => {
      await queue(moderator, '?status=closed').expect(400);
      await queue(moderator, '?cursor=bm90LWEtY3Vyc29y').expect(400);
    });
  });

  describe('resolving', () => {
    it('dismiss closes the reports, leaves the post where it was and logs it', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await report(reader, { targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(201);
      const response = await resolve(moderator, 'post', post._id, { action: 'dismiss', reason: 'Not spam' }).expect(
        200,
      );
      const body = response.body as ResolveReportsReply;
      expect(body.resolved).toBe(1);
      expect(body.entry).toMatchObject({
        action: 'dismiss',
        targetKind: 'post',
        targetId: post._id,
        reason: 'Not spam',
      });
      expect(await groupOf('post', post._id)).toBeUndefined();
      expect(await groupOf('post', post._id, 'resolved')).toMatchObject({ count: 1, status: 'resolved' });
      const got = (await t.http.get(`/api/posts/${post._id}`).expect(200)).body.post as Post;
      expect(got.title).toBe(post.title);
      expect(got.removed).toBeUndefined();
      // Reported again after a dismissal: a new open report.
      await report(reader, { targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(201);
      expect(await groupOf('post', post._id)).toMatchObject({ count: 1 });
    });

    it('remove takes a post out of every feed, search, top posts, bookmarks, feed files, sitemap and pages; its author and the moderators still read it', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const word = `quokka${Date.now().toString(36)}`;
      const tag = `mod${Date.now().toString(36)}`;
      const post = await createPost(t, author, { title: `About ${word}`, tags: [tag] });
      await t.http.put('/api/like').set('Authorization', reader.auth).send({ postId: post._id }).expect(200);
      await t.http.put('/api/bookmark').set('Authorization', reader.auth).send({ postId: post._id }).expect(200);
      await t.http
        .put('/api/comment')
        .set('Authorization', reader.auth)
        .send({ postId: post._id, text: 'nice' })
        .expect(200);
      const unread = async () =>
        (await t.http.get('/api/notifications/unread-count').set('Authorization', author.auth).expect(200)).body
          .unreadCount as number;
      expect(await unread()).toBeGreaterThanOrEqual(2);

      type Probe = [string, () => Promise<string>];
      const probes: Probe[] = [
        ['for-you', async () => JSON.stringify((await t.http.get('/api/posts?feed=for-you&limit=50')).body)],
        ['hot', async () => JSON.stringify((await t.http.get('/api/posts?feed=hot&limit=50')).body)],
        ['tag feed', async () => JSON.stringify((await t.http.get(`/api/posts?feed=tag&tag=${tag}`)).body)],
        ['profile', async () => JSON.stringify((await t.http.get(`/api/userposts/${author.id}`)).body)],
        ['top posts', async () => JSON.stringify((await t.http.get('/api/top-posts?window=day')).body)],
        ['search', async () => JSON.stringify((await t.http.get(`/api/search?q=${word}&type=posts`)).body)],
        ['search by tag', async () => JSON.stringify((await t.http.get(`/api/search?q=tag:${tag}&type=posts`)).body)],
        [
          'bookmarks',
          async () => JSON.stringify((await t.http.get('/api/bookmarks').set('Authorization', reader.auth)).body),
        ],
        ['feed.xml', async () => (await t.http.get('/feed.xml')).text],
        ['tag feed file', async () => (await t.http.get(`/t/${tag}/feed.atom`)).text],
        ['profile feed file', async () => (await t.http.get(`/profile/${author.id}/feed.xml`)).text],
        ['sitemap', async () => (await t.http.get('/sitemap/posts-1.xml')).text],
      ];
      for (const [name, read] of probes) expect([name, (await read()).includes(post._id)]).toEqual([name, true]);

      await report(reader, { targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(201);
      await resolve(moderator, 'post', post._id, { action: 'remove', reason: 'Spam link' }).expect(200);

      for (const [name, read] of probes) expect([name, (await read()).includes(post._id)]).toEqual([name, false]);
      // The notifications about it are withdrawn.
      expect(await unread()).toBe(0);
      // By id: an empty placeholder for others, whole (and marked) for its author and the moderators.
      const visitor = (await t.http.get(`/api/posts/${post._id}`).expect(200)).body.post as Post;
      expect(visitor).toMatchObject({ _id: post._id, removed: true, title: '', desc: '', body: '', tags: [] });
      expect(visitor.postedBy).toEqual(REMOVED_AUTHOR);
      const other = (await t.http.get(`/api/posts/${post._id}`).set('Authorization', reader.auth).expect(200)).body
        .post as Post;
      expect(other.title).toBe('');
      for (const user of [author, moderator]) {
        const whole = (await t.http.get(`/api/posts/${post._id}`).set('Authorization', user.auth).expect(200)).body
          .post as Post;
        expect(whole).toMatchObject({ removed: true, title: post.title, postedBy: { _id: author.id } });
      }
      // It takes no new likes or comments (from anyone), and nothing is written.
      await expectDatabaseUnchanged(t.db, async () => {
        await t.http.put('/api/like').set('Authorization', moderator.auth).send({ postId: post._id }).expect(404);
        const comment = await t.http
          .put('/api/comment')
          .set('Authorization', author.auth)
          .send({ postId: post._id, text: 'still here?' });
        expect(comment.status).toBe(409);
        expect(comment.body.error).toBe('This post was removed by the moderators; it takes no new comments');
      });
      await t.http.get(`/api/posts/${post._id}/comments`).expect(404);
      await t.http.get(`/api/posts/${post._id}/comments`).set('Authorization', author.auth).expect(200);
      // The server-rendered page is not found for its readers.
      const page = await t.http.get(`/posts/${post._id}`);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain(word);
      expect((await groupOf('post', post._id, 'resolved'))?.target.removed).toBe(true);
    });

    it('remove keeps a comment in its thread as "removed by the moderators" but for its author and the moderators', async () => {
      const [author, commenter, replier] = [await createUser(t), await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      const commented = await t.http
        .put('/api/comment')
        .set('Authorization', commenter.auth)
        .send({ postId: post._id, text: 'rude words' })
        .expect(200);
      const comment = (commented.body as Post).comments.find((item) => item.text === 'rude words') as Comment;
      await t.http
        .put('/api/comment')
        .set('Authorization', replier.auth)
        .send({ postId: post._id, text: 'calm down', parentId: comment._id })
        .expect(200);
      const authorUnread = async () =>
        (await t.http.get('/api/notifications/unread-count').set('Authorization', author.auth).expect(200)).body
          .unreadCount as number;
      const before = await authorUnread();
      await report(author, { targetKind: 'comment', targetId: comment._id, reason: 'harassment' }).expect(201);
      // The queue links a comment to its thread: it names the comment's post.
      expect((await groupOf('comment', comment._id))?.target).toMatchObject({
        excerpt: 'rude words',
        postId: post._id,
      });
      await resolve(moderator, 'comment', comment._id, { action: 'remove', reason: 'Harassment' }).expect(200);

      const thread = async (user?: TestUser) => {
        const request = t.http.get(`/api/posts/${post._id}/comments`);
        const response = await (user ? request.set('Authorization', user.auth) : request).expect(200);
        return (response.body.comments as Comment[]).find((item) => item._id === comment._id) as Comment;
      };
      for (const reader of [undefined, author, replier]) {
        expect(await thread(reader)).toMatchObject({ text: '', textHtml: '', removed: true, postedBy: REMOVED_AUTHOR });
      }
      for (const reader of [commenter, moderator, admin]) {
        expect(await thread(reader)).toMatchObject({
          text: 'rude words',
          removed: true,
          postedBy: { _id: commenter.id },
        });
      }
      // In the post itself too, and the reply stays readable.
      const full = (await t.http.get(`/api/posts/${post._id}`).expect(200)).body.post as Post;
      expect(full.comments.find((item) => item._id === comment._id)).toMatchObject({ text: '', removed: true });
      expect(full.comments.find((item) => item.text === 'calm down')).toBeDefined();
      // The notification of the comment on the author's post is withdrawn.
      expect(await authorUnread()).toBe(before - 1);
    });

    it('remove keeps a notice in the list as removed and takes it out of search', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const word = `wombat${Date.now().toString(36)}`;
      const notice = await createNotice(t, author, { desc: `Cheap ${word}` });
      const searched = async () => JSON.stringify((await t.http.get(`/api/search?q=${word}&type=notices`)).body);
      expect(await searched()).toContain(notice._id);
      await report(reader, { targetKind: 'notice', targetId: notice._id, reason: 'spam' }).expect(201);
      await resolve(moderator, 'notice', notice._id, { action: 'remove', reason: 'Spam' }).expect(200);
      expect(await searched()).not.toContain(notice._id);
      const listed = async (user?: TestUser) => {
        const request = t.http.get(`/api/usernotices/${author.id}`);
        const response = await (user ? request.set('Authorization', user.auth) : request).expect(200);
        return (response.body.notices as Notice[]).find((item) => item._id === notice._id) as Notice;
      };
      expect(await listed()).toMatchObject({ removed: true, desc: '', postedBy: REMOVED_AUTHOR });
      expect(await listed(author)).toMatchObject({ removed: true, desc: `Cheap ${word}` });
      expect(await listed(moderator)).toMatchObject({ removed: true, desc: `Cheap ${word}` });
    });

    it("suspend-author removes the post, ends the author's sessions and refuses their sign-in with 403 until the end date", async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await report(reader, { targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(201);
      const until = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
      await resolve(moderator, 'post', post._id, { action: 'suspend-author', reason: 'Spammer', until }).expect(200);
      // The session the author had is over; a write with it is refused and writes nothing.
      await expectDatabaseUnchanged(t.db, async () => {
        await t.http
          .post('/api/createpost')
          .set('Authorization', author.auth)
          .send({ title: 'again', desc: 'again' })
          .expect(401);
      });
      const signIn = await t.http.post('/api/signin').send({ userName: author.userName, password: author.password });
      expect(signIn.status).toBe(403);
      expect(signIn.body).toEqual({ error: `Your account is suspended until ${until}` });
      // A wrong password still says only that.
      await t.http.post('/api/signin').send({ userName: author.userName, password: 'wrong password' }).expect(401);
      expect((await t.http.get(`/api/posts/${post._id}`).expect(200)).body.post.removed).toBe(true);
      expect((await groupOf('post', post._id, 'resolved'))?.target.suspendedUntil).toBe(until);
      // Once the end date has passed, signing in works again.
      await t.db
        .updateTable('users')
        .set({ suspended_until: '2000-01-01T00:00:00.000Z' })
        .where('id', '=', author.id)
        .execute();
      await t.http.post('/api/signin').send({ userName: author.userName, password: author.password }).expect(200);
    });

    it('suspends a reported user indefinitely when no end date is given', async () => {
      const [troll, reader] = [await createUser(t), await createUser(t)];
      await report(reader, { targetKind: 'user', targetId: troll.id, reason: 'harassment' }).expect(201);
      await resolve(moderator, 'user', troll.id, { action: 'suspend-author', reason: 'Harassment' }).expect(200);
      const signIn = await t.http.post('/api/signin').send({ userName: troll.userName, password: troll.password });
      expect(signIn.status).toBe(403);
      expect(signIn.body).toEqual({ error: 'Your account is suspended indefinitely' });
      await t.http.get('/api/notifications').set('Authorization', troll.auth).expect(401);
    });

    it.each([
      ['an unknown action', { action: 'ban', reason: 'x' }, 400],
      ['no reason', { action: 'remove' }, 400],
      ['a blank reason', { action: 'remove', reason: '   ' }, 400],
      ['until with dismiss', { action: 'dismiss', reason: 'x', until: '2099-01-01T00:00:00.000Z' }, 400],
      ['an until in the past', { action: 'suspend-author', reason: 'x', until: '2001-01-01T00:00:00.000Z' }, 400],
      ['an until that is no date', { action: 'suspend-author', reason: 'x', until: 'tomorrow' }, 400],
    ])('refuses %s and changes nothing', async (_name, body, status) => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await report(reader, { targetKind: 'post', targetId: post._id, reason: 'spam' }).expect(201);
      await expectDatabaseUnchanged(t.db, async () => {
        const response = await resolve(moderator, 'post', post._id, body);
        expect(response.status).toBe(status);
        expect(typeof response.body.error).toBe('string');
      });
    });

    it('refuses a target without open reports, a bad kind or id, removing a user, and suspending a moderator, changing nothing', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await report(reader, { targetKind: 'user', targetId: moderator.id, reason: 'other' }).expect(201);
      await report(reader, { targetKind: 'user', targetId: author.id, reason: 'other' }).expect(201);
      await expectDatabaseUnchanged(t.db, async () => {
        await resolve(moderator, 'post', post._id, { action: 'remove', reason: 'x' }).expect(404);
        await resolve(moderator, 'draft', post._id, { action: 'remove', reason: 'x' }).expect(400);
        await resolve(moderator, 'post', 'not-an-id', { action: 'remove', reason: 'x' }).expect(400);
        await resolve(moderator, 'user', author.id, { action: 'remove', reason: 'x' }).expect(400);
        await resolve(admin, 'user', moderator.id, { action: 'suspend-author', reason: 'x' }).expect(403);
      });
    });
  });

  describe('suspending by hand', () => {
    const suspend = (user: TestUser, id: string, body: Record<string, unknown>) =>
      t.http.put(`/api/admin/users/${id}/suspend`).set('Authorization', user.auth).send(body);
    const unsuspend = (user: TestUser, id: string, body: Record<string, unknown>) =>
      t.http.put(`/api/admin/users/${id}/unsuspend`).set('Authorization', user.auth).send(body);

    it('suspends and lifts a suspension without a report, each logged', async () => {
      const troll = await createUser(t);
      const until = new Date(Date.now() + 3600 * 1000).toISOString();
      const set = await suspend(moderator, troll.id, { reason: 'Cooling off', until }).expect(200);
      expect(set.body).toMatchObject({ userId: troll.id, suspendedUntil: until, entry: { action: 'suspend' } });
      await t.http.get('/api/notifications').set('Authorization', troll.auth).expect(401);
      await t.http.post('/api/signin').send({ userName: troll.userName, password: troll.password }).expect(403);
      const lifted = await unsuspend(admin, troll.id, { reason: 'Appeal granted' }).expect(200);
      expect(lifted.body).toMatchObject({ userId: troll.id, suspendedUntil: null, entry: { action: 'unsuspend' } });
      await t.http.post('/api/signin').send({ userName: troll.userName, password: troll.password }).expect(200);
      const log = (await t.http.get('/api/moderation-log').expect(200)).body as ModerationLogReply;
      expect(log.entries.slice(0, 2).map((entry) => [entry.action, entry.targetId, entry.reason])).toEqual([
        ['unsuspend', troll.id, 'Appeal granted'],
        ['suspend', troll.id, 'Cooling off'],
      ]);
    });

    it('refuses a member, yourself, a moderator, a bad date, an unknown user, and lifting what is not there, changing nothing', async () => {
      const [member, someone] = [await createUser(t), await createUser(t)];
      await expectDatabaseUnchanged(t.db, async () => {
        await suspend(member, someone.id, { reason: 'x' }).expect(403);
        await unsuspend(member, someone.id, { reason: 'x' }).expect(403);
        await suspend(moderator, moderator.id, { reason: 'x' }).expect(403);
        await suspend(moderator, admin.id, { reason: 'x' }).expect(403);
        await suspend(moderator, someone.id, { reason: 'x', until: '2001-01-01T00:00:00.000Z' }).expect(400);
        await suspend(moderator, someone.id, {}).expect(400);
        await suspend(moderator, 'nope', { reason: 'x' }).expect(400);
        await suspend(moderator, '0123456789abcdef01234567', { reason: 'x' }).expect(404);
        await unsuspend(moderator, someone.id, { reason: 'x' }).expect(409);
      });
    });
  });

  describe('the moderation log', () => {
    it('is public, newest first, with the moderator named only for moderators and admins', async () => {
      const [author, reader] = [await createUser(t), await createUser(t)];
      const post = await createPost(t, author);
      await report(reader, { targetKind: 'post', targetId: post._id, reason: 'off-topic' }).expect(201);
      await resolve(moderator, 'post', post._id, { action: 'remove', reason: 'Off topic here' }).expect(200);
      const read = async (user?: TestUser) => {
        const request = t.http.get('/api/moderation-log');
        const body = (await (user ? request.set('Authorization', user.auth) : request).expect(200))
          .body as ModerationLogReply;
        return body;
      };
      const visitor = await read();
      expect(visitor.entries[0]).toEqual({
        _id: expect.any(String),
        at: expect.any(String),
        action: 'remove',
        targetKind: 'post',
        targetId: post._id,
        reason: 'Off topic here',
      });
      expect(visitor.entries.every((entry) => entry.moderator === undefined)).toBe(true);
      expect((await read(reader)).entries[0].moderator).toBeUndefined();
      for (const user of [moderator, admin]) {
        expect((await read(user)).entries[0].moderator).toMatchObject({
          _id: moderator.id,
          userName: moderator.userName,
        });
      }
      const ats = visitor.entries.map((entry) => entry.at);
      expect(ats).toEqual([...ats].sort().reverse());
      await t.http.get('/api/moderation-log?cursor=nope').expect(400);
    });
  });
});

/** Its own app with the limits on (two apps at once in one suite share nothing safely). */
describe('moderation rate limit', () => {
  let limited: TestApp;

  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMITS: 'on', RATE_LIMIT_REPORTS: '2/1h' });
  });

  afterAll(() => limited.close());

  it('limits reports per user (RATE_LIMIT_REPORTS), and a refused report writes nothing', async () => {
    const [author, reader] = [await createUser(limited), await createUser(limited)];
    const posts = [
      await createPost(limited, author),
      await createPost(limited, author),
      await createPost(limited, author),
    ];
    const send = (post: Post) =>
      limited.http
        .post('/api/reports')
        .set('Authorization', reader.auth)
        .send({ targetKind: 'post', targetId: post._id, reason: 'spam' });
    await send(posts[0]).expect(201);
    await send(posts[1]).expect(201);
    await expectDatabaseUnchanged(limited.db, async () => {
      const refused = await send(posts[2]);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
    });
  });
});
