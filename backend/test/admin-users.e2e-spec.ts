import type { AdminUsersReply, PasswordResetLinkReply } from '@techit/contract/api-types';
import { MODERATION } from '@techit/contract/limits';
import { DELETED_USER_ID } from '../src/common/deleted-user';
import { createUser, makeAdmin, makeModerator, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

/**
 * The admin area's two own routes (issue 20, docs/decisions/047-moderation.md, addendum): the users
 * list with its search, and the password reset link an admin passes on.
 */
describe('admin users', () => {
  let t: TestApp;
  let moderator: TestUser;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://techit.example' });
    moderator = await createUser(t, { userName: `Mod_${process.pid}` });
    await makeModerator(t, moderator);
    admin = await createUser(t);
    await makeAdmin(t, admin);
    member = await createUser(t);
  });

  afterAll(() => t.close());

  const list = (user: TestUser | null, query = '') => {
    const request = t.http.get(`/api/admin/users${query}`);
    return user ? request.set('Authorization', user.auth) : request;
  };
  const linkFor = (user: TestUser | null, id: string) => {
    const request = t.http.post(`/api/admin/users/${id}/password-reset-link`);
    return user ? request.set('Authorization', user.auth) : request;
  };

  describe('GET /api/admin/users', () => {
    it('lists everyone newest first, 20 a page, with role and suspension, for moderators and admins', async () => {
      const made: TestUser[] = [];
      for (let i = 0; i < MODERATION.queuePageSize + 2; i += 1) made.push(await createUser(t));
      await t.http
        .put(`/api/admin/users/${made[0].id}/suspend`)
        .set('Authorization', moderator.auth)
        .send({ reason: 'spam' })
        .expect(200);

      const seen: AdminUsersReply['users'] = [];
      for (let cursor: string | null = null, pages = 0; pages < 10; pages += 1) {
        const response = await list(admin, cursor ? `?cursor=${cursor}` : '').expect(200);
        const body = response.body as AdminUsersReply;
        expect(body.users.length).toBeLessThanOrEqual(MODERATION.queuePageSize);
        seen.push(...body.users);
        cursor = body.nextCursor;
        if (!cursor) break;
      }
      const ids = seen.map((user) => user._id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.slice(0, made.length)).toEqual(made.map((user) => user.id).reverse());
      expect(ids).toEqual(expect.arrayContaining([moderator.id, admin.id, member.id]));
      const byId = new Map(seen.map((user) => [user._id, user]));
      expect(byId.get(made[0].id)).toEqual({
        _id: made[0].id,
        userName: made[0].userName,
        pic: expect.any(String),
        role: 'user',
        suspendedUntil: MODERATION.suspendedIndefinitely,
        createdAt: expect.any(String),
      });
      expect(byId.get(moderator.id)).toMatchObject({ role: 'moderator', suspendedUntil: null });
      expect(byId.get(admin.id)).toMatchObject({ role: 'admin' });
      expect((await list(moderator).expect(200)).body.users).toHaveLength(MODERATION.queuePageSize);
    });

    it('finds names containing q, whatever the case, and takes LIKE wildcards literally', async () => {
      const found = (await list(moderator, `?q=${encodeURIComponent(`OD_${process.pid}`)}`).expect(200))
        .body as AdminUsersReply;
      expect(found.users.map((user) => user.userName)).toEqual([moderator.userName]);
      expect(found.nextCursor).toBeNull();
      // '_' and '%' are LIKE's wildcards: taken as themselves, they match no name here.
      expect((await list(moderator, '?q=%25').expect(200)).body.users).toEqual([]);
      const underscore = (await list(moderator, '?q=_').expect(200)).body as AdminUsersReply;
      expect(underscore.users.every((user) => user.userName.includes('_'))).toBe(true);
      expect(underscore.users.length).toBeGreaterThan(0);
    });

    it('never lists the placeholder account of deleted users', async () => {
      await createUser(t).then((gone) =>
        t.http
          .delete('/api/account')
          .set('Authorization', gone.auth)
          .send({ password: gone.password, content: 'anonymise' })
          .expect(204),
      );
      expect(
        await t.db.selectFrom('users').select('id').where('id', '=', DELETED_USER_ID).executeTakeFirst(),
      ).toBeTruthy();
      const all: string[] = [];
      for (let cursor: string | null = null, pages = 0; pages < 20; pages += 1) {
        const body = (await list(admin, cursor ? `?cursor=${cursor}` : '').expect(200)).body as AdminUsersReply;
        all.push(...body.users.map((user) => user._id));
        cursor = body.nextCursor;
        if (!cursor) break;
      }
      expect(all).not.toContain(DELETED_USER_ID);
      expect((await list(admin, '?q=deleted').expect(200)).body.users).toEqual([]);
    });

    it('refuses a member (403), a visitor (401), a bad cursor or q (400)', async () => {
      expect((await list(member).expect(403)).body).toEqual({ error: expect.any(String) });
      await list(null).expect(401);
      expect((await list(admin, '?cursor=nope').expect(400)).body).toEqual({ error: expect.any(String) });
      await list(admin, `?q=${'a'.repeat(31)}`).expect(400);
      await list(admin, '?q=a&q=b').expect(400);
    });
  });

  describe('POST /api/admin/users/:id/password-reset-link', () => {
    it('gives an admin a one-time link on the public address that sets the password once', async () => {
      const user = await createUser(t);
      const response = await linkFor(admin, user.id).expect(200);
      const body = response.body as PasswordResetLinkReply;
      expect(body).toEqual({ link: expect.any(String), expiresAt: expect.any(String) });
      const url = new URL(body.link);
      expect(url.origin).toBe('https://techit.example');
      expect(url.pathname).toBe('/reset-password');
      expect(Date.parse(body.expiresAt) - Date.now()).toBeGreaterThan(50 * 60_000);
      const token = url.searchParams.get('token');
      await t.http.post('/api/password-reset/confirm').send({ token, password: 'a brand new secret' }).expect(200);
      await t.http.post('/api/signin').send({ userName: user.userName, password: 'a brand new secret' }).expect(200);
      await t.http.post('/api/password-reset/confirm').send({ token, password: 'another new secret' }).expect(400);
    });

    it('refuses a moderator or a member (403), a visitor (401), an unknown or malformed id, changing nothing', async () => {
      await expectDatabaseUnchanged(t.db, async () => {
        expect((await linkFor(moderator, member.id).expect(403)).body).toEqual({ error: expect.any(String) });
        await linkFor(member, admin.id).expect(403);
        await linkFor(null, member.id).expect(401);
        await linkFor(admin, '0123456789abcdef01234567').expect(404);
        await linkFor(admin, DELETED_USER_ID).expect(404);
        await linkFor(admin, 'nope').expect(404);
      });
    });
  });
});
