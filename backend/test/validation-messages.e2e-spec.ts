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
