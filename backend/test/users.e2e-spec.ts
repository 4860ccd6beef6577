import { UsersService } from '../src/users/users.service';
import { createPost, createUser, makeAdmin, text, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

const DEFAULT_PIC = '/uploads/default-avatar.svg';
const PROFILE_KEYS = ['_id', 'bio', 'createdAt', 'followers', 'following', 'pic', 'position', 'role', 'userName'];
const ME_KEYS = [...PROFILE_KEYS, 'email', 'theme'].sort();
const UNKNOWN_ID = '0123456789abcdef01234567';
const MALFORMED_IDS: Array<[string, string]> = [
  ['a short id', 'abc'],
  ['24 non-hex characters', text(24, 'z')],
  ['25 hex characters', `${UNKNOWN_ID}8`],
];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const expectNothingChanged = (act: () => Promise<unknown>) => expectDatabaseUnchanged(t.db, act);

function profileOf(id: string) {
  return t.http.get(`/api/user/${id}`);
}

/** Asserts the reply is exactly the Me shape, for this user. */
function expectMe(body: Record<string, unknown>, user: TestUser): void {
  expect(Object.keys(body).sort()).toEqual(ME_KEYS);
  expect(body).toMatchObject({ _id: user.id, userName: user.userName, email: user.email });
  expect(body.role === 'user' || body.role === 'admin').toBe(true);
  expect(body.theme === 'light' || body.theme === 'dark').toBe(true);
}

describe('GET /api/user/:id', () => {
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    ada = await createUser(t);
    bob = await createUser(t);
    await t.http.put('/api/follow').set('Authorization', bob.auth).send({ followId: ada.id }).expect(200);
  });

  it('answers { user } with the public profile, without email or theme', async () => {
    const response = await profileOf(ada.id).expect(200);
    expect(Object.keys(response.body)).toEqual(['user']);
    const { user } = response.body;
    expect(Object.keys(user).sort()).toEqual(PROFILE_KEYS);
    expect(user).not.toHaveProperty('email');
    expect(user).not.toHaveProperty('theme');
    expect(user).toEqual({
      _id: ada.id,
      userName: ada.userName,
      pic: DEFAULT_PIC,
      position: '',
      bio: '',
      followers: [bob.id],
      following: [],
      role: 'user',
      createdAt: expect.any(String),
    });
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
  });

  it('never sends the email, the password hash or the theme', async () => {
    const response = await profileOf(ada.id).expect(200);
    expect(response.text).not.toContain(ada.email);
    expect(response.text).not.toMatch(/password|argon2|theme/i);
  });

  it('lists whom the user follows', async () => {
    const { body } = await profileOf(bob.id).expect(200);
    expect(body.user.following).toEqual([ada.id]);
    expect(body.user.followers).toEqual([]);
  });

  it('needs no token', async () => {
    const { body } = await profileOf(bob.id).expect(200);
    expect(body.user._id).toBe(bob.id);
  });

  it('shows the same profile to a signed-in reader, with only their own block and mute of the user added (viewer, decision 048)', async () => {
    const anonymous = await profileOf(ada.id).expect(200);
    const signedIn = await profileOf(ada.id).set('Authorization', bob.auth).expect(200);
    expect(signedIn.body).toEqual({ ...anonymous.body, viewer: { blocks: false, mutes: false } });
  });

  it('finds the user by an id written in capitals', async () => {
    const { body } = await profileOf(ada.id.toUpperCase()).expect(200);
    expect(body.user._id).toBe(ada.id);
  });

  it('answers 404 for an id that names nobody', async () => {
    const response = await profileOf(UNKNOWN_ID).expect(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it.each(MALFORMED_IDS)('answers 404 for %s', async (_label, id) => {
    const response = await profileOf(id).expect(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });
});

describe('PUT /api/follow', () => {
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  beforeAll(async () => {
    ada = await createUser(t);
    bob = await createUser(t);
    cy = await createUser(t);
  });

  function follow(user: TestUser | null, body: unknown) {
    const req = t.http.put('/api/follow');
    if (user) req.set('Authorization', user.auth);
    return req.send(body as object);
  }

  it('answers the caller as Me with the followed user in following', async () => {
    const response = await follow(ada, { followId: bob.id }).expect(200);
    expectMe(response.body, ada);
    expect(response.body.following).toEqual([bob.id]);
    expect(response.body.followers).toEqual([]);
  });

  it('shows the follower on the followed user’s profile', async () => {
    const { body } = await profileOf(bob.id).expect(200);
    expect(body.user.followers).toEqual([ada.id]);
  });

  it('adds to the list rather than replacing it', async () => {
    const response = await follow(ada, { followId: cy.id }).expect(200);
    expect([...response.body.following].sort()).toEqual([bob.id, cy.id].sort());
  });

  it('changes nothing when following the same user twice', async () => {
    await expectNothingChanged(async () => {
      const response = await follow(ada, { followId: bob.id }).expect(200);
      expect(response.body.following.filter((id: string) => id === bob.id)).toHaveLength(1);
    });
    const { body } = await profileOf(bob.id).expect(200);
    expect(body.user.followers).toEqual([ada.id]);
  });

  it('accepts the id written in capitals and stores it in canonical form', async () => {
    const response = await follow(bob, { followId: cy.id.toUpperCase() }).expect(200);
    expect(response.body.following).toEqual([cy.id]);
  });

  it('answers 400 for following yourself and changes nothing', async () => {
    await expectNothingChanged(async () => {
      const response = await follow(ada, { followId: ada.id }).expect(400);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it('answers 400 for following yourself by your id in capitals', async () => {
    await expectNothingChanged(() => follow(ada, { followId: ada.id.toUpperCase() }).expect(400));
  });

  it('answers 404 for an id that names nobody and changes nothing', async () => {
    await expectNothingChanged(async () => {
      const response = await follow(ada, { followId: UNKNOWN_ID }).expect(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it.each(MALFORMED_IDS)('answers 404 for %s and changes nothing', async (_label, id) => {
    await expectNothingChanged(async () => {
      const response = await follow(ada, { followId: id }).expect(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it('answers 401 without a token and changes nothing', async () => {
    await expectNothingChanged(async () => {
      const response = await follow(null, { followId: bob.id }).expect(401);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it.each([
    ['a missing followId', {}],
    ['an empty followId', { followId: '' }],
    ['a number as followId', { followId: 123 }],
    ['a list as followId', { followId: [UNKNOWN_ID] }],
  ])('answers 400 for %s and changes nothing', async (_label, body) => {
    await expectNothingChanged(async () => {
      const response = await follow(ada, body).expect(400);
      expect(response.body).toEqual({ error: expect.stringContaining('followId') });
    });
  });
});

describe('PUT /api/unfollow', () => {
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  beforeAll(async () => {
    ada = await createUser(t);
    bob = await createUser(t);
    cy = await createUser(t);
    await t.http.put('/api/follow').set('Authorization', ada.auth).send({ followId: bob.id }).expect(200);
    await t.http.put('/api/follow').set('Authorization', ada.auth).send({ followId: cy.id }).expect(200);
  });

  function unfollow(user: TestUser | null, body: unknown) {
    const req = t.http.put('/api/unfollow');
    if (user) req.set('Authorization', user.auth);
    return req.send(body as object);
  }

  it('answers the caller as Me without the unfollowed user', async () => {
    const response = await unfollow(ada, { unfollowId: bob.id }).expect(200);
    expectMe(response.body, ada);
    expect(response.body.following).toEqual([cy.id]);
  });

  it('removes the follower from the unfollowed user’s profile', async () => {
    const { body } = await profileOf(bob.id).expect(200);
    expect(body.user.followers).toEqual([]);
  });

  it('changes nothing when unfollowing someone not followed', async () => {
    await expectNothingChanged(async () => {
      const response = await unfollow(ada, { unfollowId: bob.id }).expect(200);
      expect(response.body.following).toEqual([cy.id]);
    });
  });

  it('answers 400 for unfollowing yourself, like following yourself', async () => {
    await expectNothingChanged(async () => {
      const response = await unfollow(ada, { unfollowId: ada.id }).expect(400);
      expect(response.body).toEqual({ error: 'You cannot unfollow yourself' });
    });
  });

  it('answers 404 for an id that names nobody and changes nothing', async () => {
    await expectNothingChanged(async () => {
      const response = await unfollow(ada, { unfollowId: UNKNOWN_ID }).expect(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it.each(MALFORMED_IDS)('answers 404 for %s and changes nothing', async (_label, id) => {
    await expectNothingChanged(() => unfollow(ada, { unfollowId: id }).expect(404));
  });

  it('answers 401 without a token and changes nothing', async () => {
    await expectNothingChanged(async () => {
      const response = await unfollow(null, { unfollowId: cy.id }).expect(401);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it.each([
    ['a missing unfollowId', {}],
    ['an empty unfollowId', { unfollowId: '' }],
    ['a number as unfollowId', { unfollowId: 123 }],
    ['followId instead of unfollowId', { followId: UNKNOWN_ID }],
  ])('answers 400 for %s and changes nothing', async (_label, body) => {
    await expectNothingChanged(async () => {
      const response = await unfollow(ada, body).expect(400);
      expect(response.body).toEqual({ error: expect.stringContaining('unfollowId') });
    });
  });
});

describe('PUT /api/updatepic', () => {
  let ada: TestUser;
  beforeAll(async () => {
    ada = await createUser(t);
  });

  function updatePic(body: unknown, user: TestUser | null = ada) {
    const req = t.http.put('/api/updatepic');
    if (user) req.set('Authorization', user.auth);
    return req.send(body as object);
  }

  const httpUrlOf = (length: number) => `https://example.com/${text(length - 'https://example.com/'.length, 'p')}`;

  it.each([
    ['an https URL', 'https://images.example.com/ada.png'],
    ['an http URL', 'http://images.example.com/ada.png'],
    ['an uploaded image', '/uploads/0123456789abcdef01234567.webp'],
    ['a URL of 2048 characters', httpUrlOf(2048)],
    ['the default picture (removing the picture)', DEFAULT_PIC],
  ])('accepts %s and answers Me with the new picture', async (_label, pic) => {
    const response = await updatePic({ pic }).expect(200);
    expectMe(response.body, ada);
    expect(response.body.pic).toBe(pic);
    const { body } = await profileOf(ada.id).expect(200);
    expect(body.user.pic).toBe(pic);
  });

  it('trims the URL', async () => {
    const response = await updatePic({ pic: '  https://images.example.com/trimmed.png  ' }).expect(200);
    expect(response.body.pic).toBe('https://images.example.com/trimmed.png');
  });

  it.each([
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:image/png;base64,AAAA'],
    ['an ftp URL', 'ftp://x'],
    ['an empty text', ''],
    ['only spaces', '   '],
    ['a URL of 2049 characters', httpUrlOf(2049)],
    ['a path outside the uploads', '/etc/passwd'],
    ['a number', 5],
    ['null', null],
  ])('rejects %s with 400 and changes nothing', async (_label, pic) => {
    await expectNothingChanged(async () => {
      const response = await updatePic({ pic }).expect(400);
      expect(response.body).toEqual({ error: expect.stringContaining('pic') });
    });
  });

  it('rejects a missing pic with 400', async () => {
    await expectNothingChanged(() => updatePic({}).expect(400));
  });

  it('answers 401 without a token and changes nothing', async () => {
    await expectNothingChanged(() => updatePic({ pic: 'https://images.example.com/x.png' }, null).expect(401));
  });
});

describe('PUT /api/bio', () => {
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    ada = await createUser(t);
    bob = await createUser(t);
  });

  function updateBio(body: unknown, user: TestUser | null = ada) {
    const req = t.http.put('/api/bio');
    if (user) req.set('Authorization', user.auth);
    return req.send(body as object);
  }

  it('answers Me with the new bio, which the public profile shows', async () => {
    const response = await updateBio({ bio: 'Writes the first program' }).expect(200);
    expectMe(response.body, ada);
    expect(response.body.bio).toBe('Writes the first program');
    const { body } = await profileOf(ada.id).expect(200);
    expect(body.user.bio).toBe('Writes the first program');
  });

  it('changes only the caller’s bio', async () => {
    await updateBio({ bio: 'Only mine' }).expect(200);
    const { body } = await profileOf(bob.id).expect(200);
    expect(body.user.bio).toBe('');
  });

  it('keeps the new bio for the next sign-in', async () => {
    await updateBio({ bio: 'Persisted' }).expect(200);
    const { body } = await t.http
      .post('/api/signin')
      .send({ userName: ada.userName, password: ada.password })
      .expect(200);
    expect(body.user.bio).toBe('Persisted');
  });

  it('accepts a bio of 160 characters', async () => {
    const response = await updateBio({ bio: text(160, 'b') }).expect(200);
    expect(response.body.bio).toBe(text(160, 'b'));
  });

  it('counts the trimmed bio: 160 characters with spaces around them pass', async () => {
    const response = await updateBio({ bio: `  ${text(160, 't')}  ` }).expect(200);
    expect(response.body.bio).toBe(text(160, 't'));
  });

  it('rejects a bio of 161 characters and changes nothing', async () => {
    await expectNothingChanged(async () => {
      const response = await updateBio({ bio: text(161, 'b') }).expect(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/bio/i) });
    });
  });

  it('clears the bio with an empty text', async () => {
    await updateBio({ bio: 'Something' }).expect(200);
    const response = await updateBio({ bio: '' }).expect(200);
    expect(response.body.bio).toBe('');
  });

  it.each([
    ['a missing bio', {}],
    ['a number', { bio: 5 }],
    ['null', { bio: null }],
  ])('answers 400 for %s and changes nothing', async (_label, body) => {
    await expectNothingChanged(async () => {
      const response = await updateBio(body).expect(400);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });
});

describe('PUT /api/position', () => {
  let ada: TestUser;
  beforeAll(async () => {
    ada = await createUser(t);
  });

  function updatePosition(body: unknown, user: TestUser | null = ada) {
    const req = t.http.put('/api/position');
    if (user) req.set('Authorization', user.auth);
    return req.send(body as object);
  }

  it('answers Me with the new position, which the public profile shows', async () => {
    const response = await updatePosition({ position: 'Analyst' }).expect(200);
    expectMe(response.body, ada);
    expect(response.body.position).toBe('Analyst');
    const { body } = await profileOf(ada.id).expect(200);
    expect(body.user.position).toBe('Analyst');
  });

  it('accepts a position of 42 characters', async () => {
    const response = await updatePosition({ position: text(42, 'p') }).expect(200);
    expect(response.body.position).toBe(text(42, 'p'));
  });

  it('rejects a position of 43 characters and changes nothing', async () => {
    await expectNothingChanged(async () => {
      const response = await updatePosition({ position: text(43, 'p') }).expect(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/position/i) });
    });
  });

  it('trims the position', async () => {
    const response = await updatePosition({ position: '  Engineer  ' }).expect(200);
    expect(response.body.position).toBe('Engineer');
  });

  it('clears the position with an empty text', async () => {
    const response = await updatePosition({ position: '' }).expect(200);
    expect(response.body.position).toBe('');
  });

  it.each([
    ['a missing position', {}],
    ['a number', { position: 5 }],
  ])('answers 400 for %s and changes nothing', async (_label, body) => {
    await expectNothingChanged(() => updatePosition(body).expect(400));
  });
});

describe('PUT /api/updatetheme', () => {
  let ada: TestUser;
  beforeAll(async () => {
    ada = await createUser(t);
  });

  function updateTheme(body: unknown, user: TestUser | null = ada) {
    const req = t.http.put('/api/updatetheme');
    if (user) req.set('Authorization', user.auth);
    return req.send(body as object);
  }

  it.each(['dark', 'light'])('accepts "%s" and answers Me with it', async (theme) => {
    const response = await updateTheme({ theme }).expect(200);
    expectMe(response.body, ada);
    expect(response.body.theme).toBe(theme);
  });

  it('keeps the theme for the next sign-in', async () => {
    await updateTheme({ theme: 'dark' }).expect(200);
    const { body } = await t.http
      .post('/api/signin')
      .send({ userName: ada.userName, password: ada.password })
      .expect(200);
    expect(body.user.theme).toBe('dark');
  });

  it.each([
    ['"blue"', { theme: 'blue' }],
    ['"Dark" in another letter case', { theme: 'Dark' }],
    ['an empty text', { theme: '' }],
    ['a missing theme', {}],
    ['a number', { theme: 1 }],
  ])('rejects %s with 400 and changes nothing', async (_label, body) => {
    await expectNothingChanged(async () => {
      const response = await updateTheme(body).expect(400);
      expect(response.body).toEqual({ error: expect.stringContaining('theme') });
    });
  });
});

describe('profile updates without a token', () => {
  it.each([
    ['/api/updatepic', { pic: 'https://images.example.com/x.png' }],
    ['/api/bio', { bio: 'x' }],
    ['/api/position', { position: 'x' }],
    ['/api/updatetheme', { theme: 'dark' }],
    ['/api/follow', { followId: UNKNOWN_ID }],
    ['/api/unfollow', { unfollowId: UNKNOWN_ID }],
  ])('PUT %s answers 401 and changes nothing', async (path, body) => {
    await expectNothingChanged(async () => {
      const response = await t.http.put(path).send(body).expect(401);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });
});

describe('the admin role', () => {
  describe('granted with makeAdmin (npm run admin -- grant)', () => {
    let admin: TestUser;
    let author: TestUser;
    let plain: TestUser;
    beforeAll(async () => {
      admin = await createUser(t);
      author = await createUser(t);
      plain = await createUser(t);
      await makeAdmin(t, admin);
    });

    it('shows role "admin" at sign-in and on the public profile', async () => {
      const signIn = await t.http
        .post('/api/signin')
        .send({ userName: admin.userName, password: admin.password })
        .expect(200);
      expect(signIn.body.user.role).toBe('admin');
      const { body } = await profileOf(admin.id).expect(200);
      expect(body.user.role).toBe('admin');
    });

    it('takes effect with a token issued before the grant', async () => {
      const response = await t.http
        .put('/api/bio')
        .set('Authorization', admin.auth)
        .send({ bio: 'in charge' })
        .expect(200);
      expect(response.body.role).toBe('admin');
    });

    it('leaves other users with role "user"', async () => {
      const { body } = await profileOf(plain.id).expect(200);
      expect(body.user.role).toBe('user');
    });

    it('lets an admin delete another user’s post, which a plain user may not', async () => {
      const post = await createPost(t, author);
      await expectNothingChanged(async () => {
        const response = await t.http
          .delete(`/api/deletepost/${post._id}`)
          .set('Authorization', plain.auth)
          .expect(403);
        expect(response.body).toEqual({ error: expect.any(String) });
      });
      await t.http.delete(`/api/deletepost/${post._id}`).set('Authorization', admin.auth).expect(200);
      await t.http.get(`/api/posts/${post._id}`).expect(404);
    });

    it('is revoked on the very next request, without a new token', async () => {
      const revokable = await createUser(t);
      await makeAdmin(t, revokable);
      const first = await createPost(t, author);
      await t.http.delete(`/api/deletepost/${first._id}`).set('Authorization', revokable.auth).expect(200);

      const me = await t.app.get(UsersService).setStoredRole(revokable.userName, 'user');
      expect(me.role).toBe('user');

      const second = await createPost(t, author);
      await expectNothingChanged(() =>
        t.http.delete(`/api/deletepost/${second._id}`).set('Authorization', revokable.auth).expect(403),
      );
      const { body } = await profileOf(revokable.id).expect(200);
      expect(body.user.role).toBe('user');
    });

    it('finds the user to grant by name in any letter case', async () => {
      const someone = await createUser(t);
      const me = await t.app.get(UsersService).setStoredRole(someone.userName.toUpperCase(), 'admin');
      expect(me).toMatchObject({ _id: someone.id, role: 'admin' });
    });

    it('refuses to grant to a user who does not exist, changing nothing', async () => {
      await expectNothingChanged(async () => {
        await expect(t.app.get(UsersService).setStoredRole('no_such_user', 'admin')).rejects.toThrow(/no_such_user/);
      });
    });
  });

  describe('named in ADMIN_USERNAMES', () => {
    let t2: TestApp;
    let boss: TestUser;
    beforeAll(async () => {
      t2 = await startTestApp({ ADMIN_USERNAMES: ' boss , chief ' });
      boss = await createUser(t2, { userName: 'Boss' });
    });
    afterAll(() => t2.close());

    it('makes a user admin whatever the letter case of the name', async () => {
      const signIn = await t2.http.post('/api/signin').send({ userName: 'Boss', password: boss.password }).expect(200);
      expect(signIn.body.user.role).toBe('admin');
      const { body } = await t2.http.get(`/api/user/${boss.id}`).expect(200);
      expect(body.user.role).toBe('admin');
    });

    it('reads every name of the comma-separated list', async () => {
      const chief = await createUser(t2, { userName: 'CHIEF' });
      const { body } = await t2.http.get(`/api/user/${chief.id}`).expect(200);
      expect(body.user.role).toBe('admin');
    });

    it('leaves users not named with role "user"', async () => {
      const worker = await createUser(t2, { userName: 'bossy' });
      const { body } = await t2.http.get(`/api/user/${worker.id}`).expect(200);
      expect(body.user.role).toBe('user');
    });

    it('keeps the user admin even when the stored role says "user"', async () => {
      const me = await t2.app.get(UsersService).setStoredRole('boss', 'user');
      expect(me.role).toBe('admin');
    });

    it('lets the named admin delete another user’s post', async () => {
      const author = await createUser(t2);
      const post = await createPost(t2, author);
      await t2.http.delete(`/api/deletepost/${post._id}`).set('Authorization', boss.auth).expect(200);
      await t2.http.get(`/api/posts/${post._id}`).expect(404);
    });
  });
});
