import type { Draft } from '@techit/contract/api-types';
import type { TestUser } from './factories';
import type { TestApp } from './test-app';

/** Starts a draft through the API (POST /api/drafts) and returns it. */
export async function createDraft(t: TestApp, owner: TestUser, body: Record<string, unknown> = {}): Promise<Draft> {
  const response = await t.http
    .post('/api/drafts')
    .set('Authorization', owner.auth)
    .send({ kind: 'post', ...body });
  if (response.status !== 201)
    throw new Error(`POST /api/drafts failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.draft as Draft;
}

/** The owner's draft as stored, or the status when it cannot be read (404 once deleted). */
export async function readDraft(t: TestApp, owner: TestUser, id: string): Promise<Draft | number> {
  const response = await t.http.get(`/api/drafts/${id}`).set('Authorization', owner.auth);
  return response.status === 200 ? (response.body.draft as Draft) : response.status;
}

/**
 * A publishing request as the editor sends it, draftId and all: `createpost` and `createnotice`
 * are POSTs, `editpost/<id>` a PUT. The reply's status is the test's to check.
 */
export function publish(
  t: TestApp,
  author: TestUser,
  route: 'createpost' | 'createnotice' | `editpost/${string}`,
  body: Record<string, unknown>,
) {
  const request = route.startsWith('editpost/') ? t.http.put(`/api/${route}`) : t.http.post(`/api/${route}`);
  return request.set('Authorization', author.auth).send(body);
}
