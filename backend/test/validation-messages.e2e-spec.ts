import { createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/** A wrong type is reported as a wrong type, not as whatever rule happened to run first. */
describe('validation messages', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    ada = await createUser(t);
  });
  afterAll(() => t.close());

  it.each([
    ['/api/createpost', { title: 42, desc: 'ok' }, 'Title must be text'],
    ['/api/createpost', { title: 'ok', desc: ['a'] }, 'Description must be text'],
    ['/api/createpost', { title: '   ', desc: 'ok' }, 'Title is required'],
    ['/api/createpost', { desc: 'ok' }, 'Title is required'],
    ['/api/createnotice', {}, 'Description is required'],
    ['/api/createpost', { title: 'x'.repeat(81), desc: 'ok' }, 'Title must be at most 80 characters'],
    ['/api/createnotice', { desc: 42 }, 'Description must be text'],
    ['/api/createnotice', { desc: 'ok', links: 'https://example.com' }, 'links must be a list'],
    ['/api/createnotice', { desc: 'ok', tags: [7] }, 'Each tag must be text'],
  ])('POST %s with %j answers 400 "%s"', async (path, body, message) => {
    const response = await t.http.post(path).set('Authorization', ada.auth).send(body).expect(400);
    expect(response.body).toEqual({ error: message });
  });

  it.each([
    ['/api/bio', { bio: 5 }, 'bio must be text'],
    ['/api/position', { position: { a: 1 } }, 'position must be text'],
    ['/api/comment', { postId: 7, text: 'hi' }, 'postId must be text'],
    ['/api/comment', { text: 'hi' }, 'postId is required'],
    ['/api/follow', {}, 'followId is required'],
  ])('PUT %s with %j answers 400 "%s"', async (path, body, message) => {
    const response = await t.http.put(path).set('Authorization', ada.auth).send(body).expect(400);
    expect(response.body).toEqual({ error: message });
  });

  it.each([
    ['a list', '[]'],
    ['a string', '"title"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('says the body must be a JSON object when it is %s', async (_label, raw) => {
    const response = await t.http
      .post('/api/createpost')
      .set('Authorization', ada.auth)
      .set('Content-Type', 'application/json')
      .send(raw)
      .expect(400);
    expect(response.body).toEqual({ error: 'The request body must be a JSON object' });
  });

  it('says a missing userName is required', async () => {
    const response = await t.http.post('/api/signup').send({ email: 'a@b.co', password: 'long enough' }).expect(400);
    expect(response.body).toEqual({ error: 'userName is required' });
  });

  it('says a userName that is not text must be text', async () => {
    const response = await t.http
      .post('/api/signup')
      .send({ userName: 123, email: 'a@b.co', password: 'long enough' })
      .expect(400);
    expect(response.body).toEqual({ error: 'userName must be text' });
  });
});

/**
 * Asked with `Prefer: field-errors` (as the web app does), beside `error` (the first problem, in
 * the words the spec's client shows) invalid input names every failing field at once with a
 * sentence a form shows next to that field.
 */
describe('per-field sentences', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    ada = await createUser(t, { userName: 'ada' });
  });
  afterAll(() => t.close());

  it('a sign-up with an empty userName and a short password names both fields at once', async () => {
    const response = await t.http
      .post('/api/signup')
      .set('Prefer', 'field-errors')
      .send({ userName: '', email: 'new@example.com', password: 'short' })
      .expect(400);
    expect(response.body).toEqual({
      error: 'userName is required',
      fields: { userName: 'Choose a user name.', password: 'The password needs 8 to 128 characters.' },
    });
  });

  it('a sign-up with every field wrong names all three', async () => {
    const response = await t.http
      .post('/api/signup')
      .set('Prefer', 'return=minimal, field-errors')
      .send({ userName: 'a b', email: 'not-an-address', password: '   ' })
      .expect(400);
    expect(response.body.fields).toEqual({
      userName: 'A user name may only use letters, digits, "_", "." and "-".',
      email: 'Enter a valid email address, such as ada@example.com.',
      password: 'Choose a password.',
    });
  });

  it('a taken userName is named as the userName field', async () => {
    const response = await t.http
      .post('/api/signup')
      .set('Prefer', 'field-errors')
      .send({ userName: 'ada', email: 'other@example.com', password: 'long enough' })
      .expect(409);
    expect(response.body).toEqual({
      error: 'That username is already taken',
      fields: { userName: 'That user name is taken; choose another.' },
    });
  });

  it('a post without title and description names both, and a bad link names its field', async () => {
    const response = await t.http
      .post('/api/createpost')
      .set('Authorization', ada.auth)
      .set('Prefer', 'field-errors')
      .send({ title: ' ', desc: '', link2: 'javascript:alert(1)' })
      .expect(400);
    expect(response.body).toEqual({
      error: 'Title is required',
      fields: {
        title: 'Give your post a title.',
        desc: 'Describe your post.',
        link2: 'The demo link must be a web address, such as github.com/you/project.',
      },
    });
  });

  it('a notice with a bad link names the links field', async () => {
    const response = await t.http
      .post('/api/createnotice')
      .set('Authorization', ada.auth)
      .set('Prefer', 'field-errors')
      .send({ desc: 'x'.repeat(1001), links: ['data:text/html,x'] })
      .expect(400);
    expect(response.body).toEqual({
      error: 'Description must be at most 1000 characters',
      fields: {
        desc: 'A notice can have at most 1000 characters.',
        links: 'Each link must be a web address, such as example.com/page.',
      },
    });
  });

  it('other errors carry no fields', async () => {
    const response = await t.http.get('/api/posts/000000000000000000000000').set('Prefer', 'field-errors').expect(404);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it("without the Prefer header the reply is exactly the spec's { error }", async () => {
    const response = await t.http.post('/api/signup').send({ userName: '', email: 'x@example.com', password: 'short' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'userName is required' });
  });
});
