import type { Notice, Post } from '@techit/contract/api-types';
import { UsersService } from '../../src/users/users.service';
import type { TestApp } from './test-app';

let sequence = 0;

export interface TestUser {
  id: string;
  userName: string;
  email: string;
  password: string;
  token: string;
  /** The Authorization header value. */
  auth: string;
}

/** Signs a new user up and in through the API, the way a person would. */
export async function createUser(
  t: TestApp,
  overrides: Partial<{ userName: string; email: string; password: string; pic: string }> = {},
): Promise<TestUser> {
  sequence += 1;
  const userName = overrides.userName ?? `user${sequence}_${process.pid}`;
  const email = overrides.email ?? `${userName.toLowerCase()}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const signUp = await t.http
    .post('/api/signup')
    .send({ userName, email, password, ...(overrides.pic ? { pic: overrides.pic } : {}) });
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(signUp.body)}`);
  const signIn = await t.http.post('/api/signin').send({ userName, password });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  const token = signIn.body.token as string;
  return { id: signIn.body.user._id as string, userName, email, password, token, auth: `Bearer ${token}` };
}

export async function createPost(t: TestApp, author: TestUser, overrides: Record<string, unknown> = {}): Promise<Post> {
  sequence += 1;
  const response = await t.http
    .post('/api/createpost')
    .set('Authorization', author.auth)
    .send({ title: `Post ${sequence}`, desc: `Description of post ${sequence}`, ...overrides });
  if (response.status !== 201)
    throw new Error(`createpost failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.post as Post;
}

/**
 * A post as a list carries it: a single-post reply (createpost, GET /api/posts/:id…) is that plus
 * its article, body and bodyHtml, which lists leave out.
 */
export function asListed(post: Post): Post {
  const { body: _body, bodyHtml: _bodyHtml, ...listed } = post;
  return listed;
}

export async function createNotice(
  t: TestApp,
  author: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<Notice> {
  sequence += 1;
  const response = await t.http
    .post('/api/createnotice')
    .set('Authorization', author.auth)
    .send({ desc: `Notice ${sequence}`, tags: [], links: [], ...overrides });
  if (response.status !== 201)
    throw new Error(`createnotice failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.notice as Notice;
}

/** Makes a user an admin the way an operator would (`npm run admin -- grant`). */
export async function makeAdmin(t: TestApp, user: TestUser): Promise<void> {
  await t.app.get(UsersService).setStoredRole(user.userName, 'admin');
}

/** Makes a user a moderator the way an operator would (`npm run admin -- grant-moderator`). */
export async function makeModerator(t: TestApp, user: TestUser): Promise<void> {
  await t.app.get(UsersService).setStoredRole(user.userName, 'moderator');
}

export function text(length: number, char = 'a'): string {
  return char.repeat(length);
}
