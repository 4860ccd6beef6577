import { createHmac } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import { createUser, text, type TestUser } from './support/factories';
import { expectDatabaseUnchanged, startTestApp, type TestApp } from './support/test-app';

const JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';
const DEFAULT_PIC = '/uploads/default-avatar.svg';
const ME_KEYS = [
  '_id',
  'bio',
  'createdAt',
  'email',
  'followers',
  'following',
  'pic',
  'position',
  'role',
  'theme',
  'userName',
];
const OBJECT_ID = /^[0-9a-f]{24}$/;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const expectNothingChanged = (act: () => Promise<unknown>) => expectDatabaseUnchanged(t.db, act);

function signUp(body: unknown) {
  return t.http.post('/api/signup').send(body as object);
}

function signIn(userName: string, password: string) {
  return t.http.post('/api/signin').send({ userName, password });
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function validBody(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { userName, email: `${userName.toLowerCase()}@example.com`, password: 'a good password', ...extra };
}

describe('POST /api/signup', () => {
  it('creates an account and answers 201 with only a message', async () => {
    const response = await signUp(validBody('Ada')).expect(201);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.body.message.length).toBeGreaterThan(0);
    const rows = await t.db
      .selectFrom('users')
      .select(['user_name', 'email', 'role', 'theme'])
      .where('user_name', '=', 'Ada')
      .execute();
    expect(rows).toEqual([{ user_name: 'Ada', email: 'ada@example.com', role: 'user', theme: 'light' }]);
  });

  it('stores a hash, never the password itself', async () => {
    await signUp(validBody('hashcheck', { password: 'plain text secret' })).expect(201);
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('user_name', '=', 'hashcheck')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain('plain text secret');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('gives a user who sent no picture the default picture', async () => {
    await signUp(validBody('nopic')).expect(201);
    const { body } = await signIn('nopic', 'a good password').expect(200);
    expect(body.user.pic).toBe(DEFAULT_PIC);
  });

  it('treats a blank picture as no picture', async () => {
    await signUp(validBody('blankpic', { pic: '   ' })).expect(201);
    const { body } = await signIn('blankpic', 'a good password').expect(200);
    expect(body.user.pic).toBe(DEFAULT_PIC);
  });

  it.each([
    ['an https URL', 'https://images.example.com/me.png'],
    ['an http URL', 'http://images.example.com/me.png'],
    ['an uploaded image', '/uploads/0123456789abcdef01234567.webp'],
    ['the default picture', DEFAULT_PIC],
  ])('accepts %s as the picture', async (_label, pic) => {
    const userName = `pic_${Math.random().toString(36).slice(2, 10)}`;
    await signUp(validBody(userName, { pic })).expect(201);
    const { body } = await signIn(userName, 'a good password').expect(200);
    expect(body.user.pic).toBe(pic);
  });

  it.each([
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:image/png;base64,AAAA'],
    ['an ftp URL', 'ftp://example.com/me.png'],
    ['a path outside the uploads', '/etc/passwd'],
    ['an uploads path that is not an issued image', '/uploads/../secret.webp'],
    ['a number', 5],
  ])('rejects %s as the picture and creates nothing', async (_label, pic) => {
    await expectNothingChanged(async () => {
      const response = await signUp(validBody('badpic', { pic })).expect(400);
      expect(response.body).toEqual({ error: expect.stringContaining('pic') });
    });
  });

  describe('userName rules', () => {
    it.each([
      ['3 characters', 'abc'],
      ['30 characters', text(30, 'b')],
      ['letters, digits, "_", "." and "-"', 'Mix_3.d-x'],
    ])('accepts a userName of %s', async (_label, userName) => {
      await signUp(validBody(userName)).expect(201);
      const { body } = await signIn(userName, 'a good password').expect(200);
      expect(body.user.userName).toBe(userName);
    });

    it.each([
      ['of 2 characters', 'ab'],
      ['of 31 characters', text(31, 'c')],
      ['with a space', 'ada lovelace'],
      ['with "!"', 'ada!'],
      ['with "@"', 'ada@home'],
      ['with a non-ASCII letter', 'adé'],
      ['of only spaces', '   '],
      ['that is empty', ''],
      ['that is a number', 123],
      ['that is null', null],
    ])('rejects a userName %s and creates nothing', async (_label, userName) => {
      await expectNothingChanged(async () => {
        const response = await signUp({ userName, email: 'rejected@example.com', password: 'a good password' }).expect(
          400,
        );
        expect(response.body).toEqual({ error: expect.stringContaining('userName') });
      });
    });

    it('rejects a missing userName', async () => {
      await expectNothingChanged(async () => {
        const response = await signUp({ email: 'rejected@example.com', password: 'a good password' }).expect(400);
        expect(response.body.error).toMatch(/userName/);
      });
    });

    it('counts a userName that is 2 characters once trimmed as too short', async () => {
      await expectNothingChanged(async () => {
        const response = await signUp({
          userName: '  ab  ',
          email: 'trimmed-ab@example.com',
          password: 'a good password',
        }).expect(400);
        expect(response.body.error).toMatch(/userName/);
      });
    });

    it('trims the userName and the email before storing them', async () => {
      await signUp({
        userName: '  trimmed_name  ',
        email: '  Trimmed@Example.com ',
        password: 'a good password',
      }).expect(201);
      const { body } = await signIn('trimmed_name', 'a good password').expect(200);
      expect(body.user.userName).toBe('trimmed_name');
      expect(body.user.email).toBe('Trimmed@Example.com');
    });
  });

  describe('email rules', () => {
    it.each([
      ['no "@"', 'not-an-email'],
      ['no domain', 'someone@'],
      ['no local part', '@example.com'],
      ['a space inside', 'some one@example.com'],
      ['only spaces', '   '],
      ['a list instead of text', ['a@example.com']],
    ])('rejects an email with %s', async (_label, email) => {
      await expectNothingChanged(async () => {
        const response = await signUp({ userName: 'emailcheck', email, password: 'a good password' }).expect(400);
        expect(response.body).toEqual({ error: expect.stringContaining('email') });
      });
    });

    it('rejects a missing email', async () => {
      await expectNothingChanged(async () => {
        const response = await signUp({ userName: 'emailcheck', password: 'a good password' }).expect(400);
        expect(response.body.error).toMatch(/email/);
      });
    });

    // 64 (local part) + "@" + 63 + "." + 63 + "." + n + ".com"
    const emailOf = (length: number) =>
      `${text(64, 'e')}@${text(63, 'f')}.${text(63, 'g')}.${text(length - 197, 'h')}.com`;

    it('accepts an email of 254 characters', async () => {
      const email = emailOf(254);
      expect(email).toHaveLength(254);
      await signUp({ userName: 'longmail', email, password: 'a good password' }).expect(201);
      const { body } = await signIn(email, 'a good password').expect(200);
      expect(body.user.email).toBe(email);
    });

    it('rejects an email of 255 characters', async () => {
      const email = emailOf(255);
      expect(email).toHaveLength(255);
      await expectNothingChanged(async () => {
        const response = await signUp({ userName: 'longermail', email, password: 'a good password' }).expect(400);
        expect(response.body).toEqual({ error: expect.stringContaining('email') });
      });
    });
  });

  describe('password rules', () => {
    it.each([
      ['8 characters', text(8, 'p')],
      ['128 characters', text(128, 'q')],
    ])('accepts a password of %s', async (label, password) => {
      const userName = `pw${label.split(' ')[0]}`;
      await signUp({ userName, email: `${userName}@example.com`, password }).expect(201);
      await signIn(userName, password).expect(200);
    });

    it.each([
      ['of 7 characters', text(7, 'p')],
      ['of 129 characters', text(129, 'q')],
      ['that is empty', ''],
      ['of only spaces', text(10, ' ')],
      ['that is a number', 12345678],
    ])('rejects a password %s and creates nothing', async (_label, password) => {
      await expectNothingChanged(async () => {
        const response = await signUp({ userName: 'pwcheck', email: 'pwcheck@example.com', password }).expect(400);
        expect(response.body).toEqual({ error: expect.stringContaining('password') });
      });
    });

    it('rejects a missing password', async () => {
      await expectNothingChanged(async () => {
        const response = await signUp({ userName: 'pwcheck', email: 'pwcheck@example.com' }).expect(400);
        expect(response.body.error).toMatch(/password/);
      });
    });
  });

  describe('taken names', () => {
    beforeAll(async () => {
      await signUp({ userName: 'Grace', email: 'Grace@Navy.mil', password: 'a good password' }).expect(201);
    });

    it.each([
      ['the same userName', 'Grace', 'other1@example.com'],
      ['the userName in another letter case', 'grace', 'other2@example.com'],
      ['the userName in capitals', 'GRACE', 'other3@example.com'],
    ])('answers 409 for %s and creates nothing', async (_label, userName, email) => {
      await expectNothingChanged(async () => {
        const response = await signUp({ userName, email, password: 'a good password' }).expect(409);
        expect(response.body).toEqual({ error: expect.any(String) });
      });
    });

    it.each([
      ['the same email', 'Grace@Navy.mil'],
      ['the email in another letter case', 'grace@navy.mil'],
      ['the email in capitals', 'GRACE@NAVY.MIL'],
      ['the email with spaces around it', '  grace@navy.mil  '],
    ])('answers 409 for %s and creates nothing', async (_label, email) => {
      await expectNothingChanged(async () => {
        const response = await signUp({ userName: 'someone_else', email, password: 'a good password' }).expect(409);
        expect(response.body).toEqual({ error: expect.any(String) });
      });
    });

    it('answers 409, not a server error, for a taken email holding a non-ASCII capital letter', async () => {
      await signUp({ userName: 'Angstrom', email: 'Ångström@example.com', password: 'a good password' }).expect(201);
      await expectNothingChanged(async () => {
        const response = await signUp({
          userName: 'Angstrom2',
          email: 'Ångström@example.com',
          password: 'a good password',
        }).expect(409);
        expect(response.body).toEqual({ error: expect.stringContaining('email') });
      });
    });

    it('treats emails differing only in the case of a non-ASCII letter as the same account', async () => {
      await signUp({ userName: 'Zoe', email: 'ZOË@example.com', password: 'a good password' }).expect(201);
      await expectNothingChanged(async () => {
        await signUp({ userName: 'Zoe2', email: 'zoë@example.com', password: 'a good password' }).expect(409);
      });
    });

    it('tells which of the two is taken', async () => {
      const name = await signUp({ userName: 'grace', email: 'fresh@example.com', password: 'a good password' }).expect(
        409,
      );
      const email = await signUp({
        userName: 'fresh_name',
        email: 'grace@navy.mil',
        password: 'a good password',
      }).expect(409);
      expect(name.body.error).toMatch(/username/i);
      expect(email.body.error).toMatch(/email/i);
    });
  });

  describe('unknown fields', () => {
    it('ignores unknown fields, including an attempt to choose the role, id or theme', async () => {
      await signUp(
        validBody('sneaky', {
          role: 'admin',
          _id: '0123456789abcdef01234567',
          theme: 'dark',
          followers: ['x'],
          extra: true,
        }),
      ).expect(201);
      const { body } = await signIn('sneaky', 'a good password').expect(200);
      expect(body.user.role).toBe('user');
      expect(body.user.theme).toBe('light');
      expect(body.user._id).not.toBe('0123456789abcdef01234567');
      expect(body.user.followers).toEqual([]);
    });
  });
});

describe('POST /api/signin', () => {
  let ada: TestUser;
  beforeAll(async () => {
    ada = await createUser(t, {
      userName: 'AdaSignin',
      email: 'Ada.Signin@Example.com',
      password: 'analytical engine',
    });
  });

  it('answers 200 with a token and the user in the Me shape', async () => {
    const response = await signIn('AdaSignin', 'analytical engine').expect(200);
    expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
    const { token, user } = response.body;
    expect(typeof token).toBe('string');
    expect(token.split('.')).toHaveLength(3);
    expect(Object.keys(user).sort()).toEqual(ME_KEYS);
    expect(user).toEqual({
      _id: ada.id,
      userName: 'AdaSignin',
      email: 'Ada.Signin@Example.com',
      pic: DEFAULT_PIC,
      position: '',
      bio: '',
      followers: [],
      following: [],
      theme: 'light',
      role: 'user',
      createdAt: expect.any(String),
    });
    expect(user._id).toMatch(OBJECT_ID);
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
  });

  it('issues an HS256 token naming the user, valid for 30 days', async () => {
    const { body } = await signIn('AdaSignin', 'analytical engine').expect(200);
    const [header, payload] = (body.token as string)
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
    expect(header.alg).toBe('HS256');
    expect(payload.sub).toBe(ada.id);
    expect(payload.exp - payload.iat).toBe(30 * 24 * 60 * 60);
  });

  it('never sends the password or its hash', async () => {
    const response = await signIn('AdaSignin', 'analytical engine').expect(200);
    expect(response.text).not.toMatch(/password/i);
    expect(response.text).not.toContain('analytical engine');
    expect(response.text).not.toContain('$argon2');
  });

  it('gives a token that works on a protected route', async () => {
    const { body } = await signIn('AdaSignin', 'analytical engine').expect(200);
    const response = await t.http
      .put('/api/bio')
      .set('Authorization', `Bearer ${body.token}`)
      .send({ bio: 'Hello' })
      .expect(200);
    expect(response.body.bio).toBe('Hello');
  });

  it.each([
    ['the userName in another letter case', 'adasignin'],
    ['the userName in capitals', 'ADASIGNIN'],
    ['the userName with spaces around it', '  AdaSignin  '],
    ['the email', 'Ada.Signin@Example.com'],
    ['the email in lower case', 'ada.signin@example.com'],
    ['the email in capitals', 'ADA.SIGNIN@EXAMPLE.COM'],
  ])('signs in with %s', async (_label, login) => {
    const { body } = await signIn(login, 'analytical engine').expect(200);
    expect(body.user._id).toBe(ada.id);
  });

  it('signs in by email exactly as it was typed, even with a non-ASCII capital letter', async () => {
    await signUp({ userName: 'elodie', email: 'Élodie@example.com', password: 'a good password' }).expect(201);
    const { body } = await signIn('Élodie@example.com', 'a good password').expect(200);
    expect(body.user.userName).toBe('elodie');
  });

  it('signs in by email in another letter case, non-ASCII letters included', async () => {
    await signUp({ userName: 'elodie2', email: 'ÉLODIE2@example.com', password: 'a good password' }).expect(201);
    const { body } = await signIn('élodie2@EXAMPLE.com', 'a good password').expect(200);
    expect(body.user.userName).toBe('elodie2');
    expect(body.user.email).toBe('ÉLODIE2@example.com');
  });

  it('answers 401 with the same error for a wrong password and for an unknown user', async () => {
    const wrongPassword = await signIn('AdaSignin', 'difference engine').expect(401);
    const unknownUser = await signIn('nobody_here', 'analytical engine').expect(401);
    const unknownEmail = await signIn('nobody@example.com', 'analytical engine').expect(401);
    expect(wrongPassword.body).toEqual({ error: expect.any(String) });
    expect(unknownUser.body).toEqual(wrongPassword.body);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('treats the password as case-sensitive', async () => {
    const response = await signIn('AdaSignin', 'ANALYTICAL ENGINE').expect(401);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('does not trim the password', async () => {
    await signIn('AdaSignin', ' analytical engine ').expect(401);
  });

  it.each([
    ['a missing userName', { password: 'analytical engine' }],
    ['a missing password', { userName: 'AdaSignin' }],
    ['a blank userName', { userName: '   ', password: 'analytical engine' }],
    ['an empty password', { userName: 'AdaSignin', password: '' }],
    ['a number as userName', { userName: 123, password: 'analytical engine' }],
    ['a number as password', { userName: 'AdaSignin', password: 12345678 }],
  ])('answers 400 for %s', async (_label, body) => {
    const response = await t.http.post('/api/signin').send(body).expect(400);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('changes nothing when it signs someone in', async () => {
    await expectNothingChanged(() => signIn('AdaSignin', 'analytical engine').expect(200));
  });
});

describe('bearer tokens', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(t);
  });

  function forge(header: object, payload: object, secret: string): string {
    const unsigned = `${base64url(header)}.${base64url(payload)}`;
    return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
  }

  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a token the app issued', async () => {
    const response = await t.http
      .put('/api/bio')
      .set('Authorization', user.auth)
      .send({ bio: 'valid token' })
      .expect(200);
    expect(response.body._id).toBe(user.id);
  });

  it('answers 401 asking the caller to log in when there is no token', async () => {
    await expectNothingChanged(async () => {
      const response = await t.http.put('/api/bio').send({ bio: 'no token' }).expect(401);
      expect(response.body).toEqual({ error: expect.stringMatching(/log in/i) });
    });
  });

  it('answers 401 saying the session expired for an expired token', async () => {
    const expired = sign({ sub: user.id, iat: now() - 120, exp: now() - 60 }, JWT_SECRET, { algorithm: 'HS256' });
    await expectNothingChanged(async () => {
      const response = await t.http
        .put('/api/bio')
        .set('Authorization', `Bearer ${expired}`)
        .send({ bio: 'expired' })
        .expect(401);
      expect(response.body).toEqual({ error: expect.stringMatching(/expired/i) });
    });
  });

  const badTokens: Array<[string, () => string]> = [
    [
      'signed with another secret',
      () => sign({ sub: user.id }, 'another-secret-that-is-also-32-characters-long', { algorithm: 'HS256' }),
    ],
    [
      'signed by hand with another secret',
      () => forge({ alg: 'HS256', typ: 'JWT' }, { sub: user.id, iat: now() }, 'not the secret'),
    ],
    [
      'with alg "none" and no signature',
      () => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: user.id, iat: now() })}.`,
    ],
    [
      'with alg "none" and the real signature stripped from a valid token',
      () => {
        const [, payload] = user.token.split('.');
        return `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
      },
    ],
    ['signed with the right secret but HS512', () => sign({ sub: user.id }, JWT_SECRET, { algorithm: 'HS512' })],
    [
      'whose payload was altered after signing',
      () => {
        const [header, , signature] = user.token.split('.');
        return `${header}.${base64url({ sub: '0123456789abcdef01234567', iat: now() })}.${signature}`;
      },
    ],
    [
      'naming a user who does not exist',
      () => sign({ sub: '0123456789abcdef01234567' }, JWT_SECRET, { algorithm: 'HS256' }),
    ],
    ['whose subject is not text', () => sign({ sub: 42 }, JWT_SECRET, { algorithm: 'HS256' })],
    ['without a subject', () => sign({ name: user.userName }, JWT_SECRET, { algorithm: 'HS256' })],
    ['that is not a JWT at all', () => 'not-a-jwt'],
  ];

  it.each(badTokens)('answers 401 for a token %s', async (_label, makeToken) => {
    await expectNothingChanged(async () => {
      const response = await t.http
        .put('/api/bio')
        .set('Authorization', `Bearer ${makeToken()}`)
        .send({ bio: 'forged' })
        .expect(401);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it('answers 401 for a valid token sent without the "Bearer" scheme', async () => {
    await expectNothingChanged(() =>
      t.http.put('/api/bio').set('Authorization', user.token).send({ bio: 'no scheme' }).expect(401),
    );
  });

  it('answers 401 for the token of an account that has since been removed', async () => {
    const doomed = await createUser(t);
    await t.db.deleteFrom('users').where('id', '=', doomed.id).execute();
    await expectNothingChanged(async () => {
      const response = await t.http
        .put('/api/bio')
        .set('Authorization', doomed.auth)
        .send({ bio: 'ghost' })
        .expect(401);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });
});

describe('request bodies', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(t);
  });

  const rawBodies: Array<[string, string]> = [
    ['malformed JSON', '{"userName": "broken", '],
    [
      'a "__proto__" key',
      '{"userName":"proto_user","email":"proto@example.com","password":"a good password","__proto__":{"role":"admin"}}',
    ],
    [
      'a "constructor.prototype" key',
      '{"userName":"ctor_user","email":"ctor@example.com","password":"a good password","constructor":{"prototype":{"role":"admin"}}}',
    ],
    ['a JSON array', '[]'],
    [
      'a JSON array holding a valid body',
      '[{"userName":"array_user","email":"array@example.com","password":"a good password"}]',
    ],
    ['a JSON string', '"x"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['an empty body', ''],
  ];

  it.each(rawBodies)('answers 400 with an error to a sign-up with %s and creates nothing', async (_label, raw) => {
    await expectNothingChanged(async () => {
      const response = await t.http.post('/api/signup').set('Content-Type', 'application/json').send(raw).expect(400);
      expect(response.body).toEqual({ error: expect.any(String) });
    });
  });

  it.each(rawBodies)(
    'answers 400 with an error to an authenticated update with %s and changes nothing',
    async (_label, raw) => {
      await expectNothingChanged(async () => {
        const response = await t.http
          .put('/api/bio')
          .set('Authorization', user.auth)
          .set('Content-Type', 'application/json')
          .send(raw)
          .expect(400);
        expect(response.body).toEqual({ error: expect.any(String) });
      });
    },
  );

  it('names the problem for malformed JSON', async () => {
    const response = await t.http
      .post('/api/signin')
      .set('Content-Type', 'application/json')
      .send('{"userName":')
      .expect(400);
    expect(response.body.error).toMatch(/JSON/);
  });

  it('names the problem for a "__proto__" key', async () => {
    const response = await t.http
      .post('/api/signin')
      .set('Content-Type', 'application/json')
      .send('{"userName":"x","password":"y","__proto__":{}}')
      .expect(400);
    expect(response.body.error).toMatch(/__proto__/);
  });
});
